// With code splitting on, esbuild puts its own runtime helpers (`__commonJS`, `__toESM`: a few hundred bytes) in a
// chunk of their own as soon as a lazily loaded module exists, and every page paid a request for it. A chunk under
// the limit that imports nothing is folded into the entry: the entry always loads first and evaluates it exactly
// once, as the import did, and the lazy chunks' bare `import "./chunk-…js"` (esbuild adds it for evaluation order)
// goes, since the entry has run it already. A chunk a lazy module imports names from is left alone.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MICRO_CHUNK_BYTES = 1024;

const EXPORT_CLAUSE = /export\s*\{([^}]*)\};?\s*(?:\/\/# sourceMappingURL=\S+\s*)?$/;

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function specifierFrom(importer, chunk) {
  const relative = path.posix.relative(path.posix.dirname(importer), chunk);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** `import{a as x,b as y}from"spec";` or `import"spec";`, with what it binds (null when bare). */
function findImport(code, specifier) {
  const pattern = new RegExp(`import\\s*(?:\\{([^}]*)\\}\\s*from\\s*)?["']${escapeRegExp(specifier)}["'];?`);
  const match = pattern.exec(code);
  if (!match) return null;
  return { statement: match[0], index: match.index, bindings: match[1] === undefined ? null : match[1] };
}

/** `a as sa, b` → [['a','sa'], ['b','b']] */
function pairs(list) {
  return list
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [name, alias] = part.split(/\s+as\s+/);
      return [name.trim(), (alias ?? name).trim()];
    });
}

/** The chunk as an expression that runs it once and yields its exports, bound to the names the entry used. */
function inlined(chunkCode, bindings) {
  const exported = EXPORT_CLAUSE.exec(chunkCode);
  if (!exported) throw new Error('micro chunk without a trailing export clause');
  const body = chunkCode.slice(0, exported.index);
  const exports = pairs(exported[1]).map(([local, name]) => `${JSON.stringify(name)}:${local}`);
  const run = `(()=>{${body}return{${exports.join(',')}}})()`;
  if (!bindings) return `${run};`;
  const destructure = pairs(bindings).map(([name, alias]) => `${JSON.stringify(name)}:${alias}`);
  return `var{${destructure.join(',')}}=${run};`;
}

// Base64 VLQ, as source maps write numbers.
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeFirst(segment) {
  let value = 0;
  let shift = 0;
  let used = 0;
  for (const char of segment) {
    const digit = B64.indexOf(char);
    used += 1;
    value += (digit & 31) << shift;
    if ((digit & 32) === 0) break;
    shift += 5;
  }
  return { value: value & 1 ? -(value >>> 1) : value >>> 1, used };
}

function encode(number) {
  let vlq = number < 0 ? (-number << 1) | 1 : number << 1;
  let out = '';
  do {
    let digit = vlq & 31;
    vlq >>>= 5;
    if (vlq > 0) digit |= 32;
    out += B64[digit];
  } while (vlq > 0);
  return out;
}

/** Moves what follows `fromColumn` on generated line `line` by `delta` columns (its first segment at or after it). */
function shiftLine(mappings, line, fromColumn, delta) {
  const lines = mappings.split(';');
  const segments = lines[line]?.split(',') ?? [];
  let column = 0;
  for (let i = 0; i < segments.length; i += 1) {
    if (!segments[i]) continue;
    const { value, used } = decodeFirst(segments[i]);
    column += value;
    if (column < fromColumn) continue;
    // Columns after the first are relative, so moving this one moves the rest of the line with it.
    segments[i] = encode(value + delta) + segments[i].slice(used);
    break;
  }
  lines[line] = segments.join(',');
  return lines.join(';');
}

function lineAndColumn(code, index) {
  const before = code.slice(0, index);
  const line = before.split('\n').length - 1;
  return { line, column: index - (before.lastIndexOf('\n') + 1) };
}

function replaceInFile(root, file, statement, replacement, index) {
  const absolute = path.join(root, file);
  const code = readFileSync(absolute, 'utf8');
  writeFileSync(absolute, code.slice(0, index) + replacement + code.slice(index + statement.length));
  const mapFile = `${absolute}.map`;
  let map;
  try {
    map = JSON.parse(readFileSync(mapFile, 'utf8'));
  } catch {
    return;
  }
  const { line, column } = lineAndColumn(code, index);
  map.mappings = shiftLine(map.mappings, line, column + statement.length, replacement.length - statement.length);
  writeFileSync(mapFile, JSON.stringify(map));
}

/**
 * Folds every micro chunk of the build into `entryFile` (both paths as in the metafile, relative to `root`), and
 * updates the metafile to match. Returns the chunks folded.
 */
export function inlineMicroChunks(root, metafile, entryFile, limit = MICRO_CHUNK_BYTES) {
  const outputs = metafile.outputs;
  const folded = [];
  for (const [chunk, output] of Object.entries(outputs)) {
    if (output.entryPoint || !chunk.endsWith('.js') || output.bytes >= limit || output.imports.length > 0) continue;
    const importers = Object.entries(outputs).filter(([, other]) => other.imports.some((imp) => imp.path === chunk));
    if (!importers.some(([file]) => file === entryFile)) continue;
    const found = importers.map(([file]) => ({ file, use: findImport(readFileSync(path.join(root, file), 'utf8'), specifierFrom(file, chunk)) }));
    if (found.some(({ file, use }) => !use || (file !== entryFile && use.bindings !== null))) continue;
    const chunkCode = readFileSync(path.join(root, chunk), 'utf8');
    for (const { file, use } of found) {
      replaceInFile(root, file, use.statement, file === entryFile ? inlined(chunkCode, use.bindings) : '', use.index);
      outputs[file].imports = outputs[file].imports.filter((imp) => imp.path !== chunk);
    }
    rmSync(path.join(root, chunk));
    rmSync(path.join(root, `${chunk}.map`), { force: true });
    delete outputs[chunk];
    delete outputs[`${chunk}.map`];
    folded.push(chunk);
  }
  return folded;
}

/** `node scripts/inline-micro-chunks.mjs <root> <metafile.json> <entry output>`: folds, rewrites the metafile, prints what it folded. */
function main() {
  const [root, metafilePath, entryFile] = process.argv.slice(2);
  if (!root || !metafilePath || !entryFile) {
    console.error('usage: node scripts/inline-micro-chunks.mjs <root> <metafile.json> <entry output>');
    process.exit(2);
  }
  const metafile = JSON.parse(readFileSync(metafilePath, 'utf8'));
  const folded = inlineMicroChunks(root, metafile, entryFile);
  writeFileSync(metafilePath, JSON.stringify(metafile));
  console.log(JSON.stringify(folded));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
