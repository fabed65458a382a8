#!/usr/bin/env node
// The import rules of the source tree (docs/architecture.md "Layout"), checked on every CI run:
//   1. one direction: nothing in shared/ imports from client/ or server/ (type-only imports included: shared/ is
//      what both sides and the tools build on, so it may not even name a type of one side);
//   2. no import cycle: the modules of client/, server/, shared/ and scripts/ form no circle, however long.
//   3. floors: client/, server/ and shared/ import nothing from scripts/ (the tools build on the product, not
//      the other way round);
//   4. floors of server/: its folders stand in one order (SERVER_FLOORS), and each imports only from those below
//      it, so no two folders circle each other even when no two files do;
//   5. shared/ is what both sides run: each of its modules is reached from client/ (one only the server or the
//      tools import belongs under server/ or scripts/), and it imports no Node builtin and no package but those
//      the browser bundle holds (BROWSER_PACKAGES).
// Every rule reads each file's import specifiers with the TypeScript compiler's own pre-processor: static,
// dynamic, `require` and type-only imports alike.
//   node scripts/import-check.mjs [root]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE_DIRS = ['client', 'server', 'shared', 'scripts'];
const SOURCE_FILE = /\.(ts|tsx|mjs)$/;
const NOT_SOURCE = /\.test\.tsx?$|\.d\.ts$/;

/** Every source file under the root's source folders, as root-relative paths with forward slashes. */
export function sourceFiles(root) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (SOURCE_FILE.test(entry.name) && !NOT_SOURCE.test(entry.name)) found.push(relative);
    }
  };
  for (const dir of SOURCE_DIRS) {
    if (statSync(path.join(root, dir), { throwIfNoEntry: false })?.isDirectory()) walk(dir);
  }
  return found.sort();
}

const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.mjs', '.js', '/index.ts', '/index.tsx'];

/** A relative specifier of `from` as the root-relative file it names, or the bare path when no file matches. */
function resolveRelative(root, from, specifier) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const file = RESOLVE_SUFFIXES.map((suffix) => base + suffix).find((candidate) => statSync(path.join(root, candidate), { throwIfNoEntry: false })?.isFile());
  return file ?? base;
}

/** What each floor may not import: shared/ neither side; no product code the tools in scripts/. */
const FORBIDDEN = [
  { from: /^shared\//, to: [/^client\//, /^server\//], why: 'shared/ imports nothing from client/ or server/' },
  { from: /^(client|server|shared)\//, to: [/^scripts\//], why: 'the product imports nothing from scripts/' },
];

/** Imports that go up a floor: `{ from, to, why }`, type-only imports included. */
export function directionViolations(root, files, graph = importGraph(root, files)) {
  const violations = [];
  for (const [from, targets] of graph) {
    for (const rule of FORBIDDEN.filter((candidate) => candidate.from.test(from))) {
      for (const to of targets) if (rule.to.some((pattern) => pattern.test(to))) violations.push({ from, to, why: rule.why });
    }
  }
  return violations;
}

/**
 * The folders of server/, lowest first (docs/architecture.md "Layout"): a module imports only from its own folder
 * and from folders below it. platform/ is the ground (configuration, logs, metrics, HTML escaping) and imports no
 * other folder; edge/ is what runs before Express and reads a request once; render/ is the page pipeline over it;
 * '' is server/'s own files, which put the folders together and which no folder imports. A new folder takes its
 * place here, in the one line where the order is chosen.
 */
export const SERVER_FLOORS = ['platform', 'redis', 'cache', 'preview', 'upstream', 'auth', 'api-proxy', 'pages', 'edge', 'render', 'seo', 'images', ''];

/** A server/ module's folder under server/ ('' for server/'s own files); null outside server/. */
function serverFolder(file) {
  if (!file.startsWith('server/')) return null;
  const parts = file.split('/');
  return parts.length > 2 ? parts[1] : '';
}

const floorName = (folder) => (folder === '' ? "the wiring at server/'s root" : `server/${folder}/`);

/** Imports from a server/ folder into one on its own floor or above it, and folders on no floor: as finding lines. */
export function floorViolations(root, files, graph = importGraph(root, files)) {
  const lines = [];
  const unplaced = new Set();
  for (const [from, targets] of graph) {
    const fromFolder = serverFolder(from);
    if (fromFolder === null) continue;
    if (!SERVER_FLOORS.includes(fromFolder)) unplaced.add(fromFolder);
    for (const to of targets) {
      const toFolder = serverFolder(to);
      if (toFolder === null || toFolder === fromFolder || !SERVER_FLOORS.includes(fromFolder) || !SERVER_FLOORS.includes(toFolder)) continue;
      if (SERVER_FLOORS.indexOf(toFolder) > SERVER_FLOORS.indexOf(fromFolder)) {
        lines.push(
          `${from} imports ${to}: ${floorName(fromFolder)} imports only from the floors below it (SERVER_FLOORS), and ${floorName(toFolder)} is above it`,
        );
      }
    }
  }
  for (const folder of [...unplaced].sort()) lines.push(`server/${folder}/ is on no floor: give it its place in SERVER_FLOORS (scripts/import-check.mjs)`);
  return lines;
}

/**
 * The module graph of the given files as their import lines name it: root-relative path → imported paths. Static,
 * dynamic, `require` and type-only imports alike (the TypeScript pre-processor): a circle of types alone loads
 * nothing, but it ties the modules together as tightly for whoever reads or moves them.
 */
export function importGraph(root, files) {
  const graph = new Map();
  for (const from of files) {
    const targets = specifiers(root, from)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveRelative(root, from, specifier));
    graph.set(
      from,
      [...new Set(targets)].filter((target) => SOURCE_FILE.test(target) && !target.endsWith('.d.ts')),
    );
  }
  return graph;
}

/** What a file's import lines name, as written: static, dynamic, `require` and type-only imports alike. */
function specifiers(root, file) {
  return ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true).importedFiles.map(({ fileName }) => fileName);
}

/**
 * The packages shared/ may import: those the browser bundle holds (React and its router, dates, the carousel, the
 * HLS player). A package that is not here is either Node-only or not yet judged safe for the browser; adding one
 * is a one-line choice made where the rule is.
 */
export const BROWSER_PACKAGES = new Set(['react', 'react-dom', 'react-router-dom', 'dayjs', 'swiper', 'hls.js']);

/** `@scope/name/deep` → `@scope/name`; `name/deep` → `name`. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * shared/ modules that are not isomorphic: `{ file, why }` for one no client/ module reaches (through any chain of
 * imports, type-only ones included) and for one that imports a Node builtin or a package outside BROWSER_PACKAGES.
 */
export function sharedFloorViolations(root, files, graph = importGraph(root, files)) {
  const reached = new Set(files.filter((file) => file.startsWith('client/')));
  const queue = [...reached];
  while (queue.length > 0) {
    for (const target of graph.get(queue.shift()) ?? []) {
      if (reached.has(target)) continue;
      reached.add(target);
      queue.push(target);
    }
  }
  const violations = [];
  for (const file of files.filter((candidate) => candidate.startsWith('shared/'))) {
    if (!reached.has(file)) {
      const importers = [...graph].filter(([, targets]) => targets.includes(file)).map(([from]) => from);
      const by = importers.length > 0 ? `imported only by ${importers.join(', ')}` : 'imported by nothing';
      violations.push({ file, why: `no client/ module reaches it (${by}): shared/ holds what both sides run; move it under server/ or scripts/` });
    }
    for (const specifier of specifiers(root, file).filter((candidate) => !candidate.startsWith('.'))) {
      if (isBuiltin(specifier)) violations.push({ file, why: `imports ${specifier}, a Node builtin: shared/ runs in the browser too` });
      else if (!BROWSER_PACKAGES.has(packageName(specifier))) {
        violations.push({ file, why: `imports ${specifier}, not a package of the browser bundle (BROWSER_PACKAGES): shared/ runs in the browser too` });
      }
    }
  }
  return violations;
}

/** The strongly connected components of more than one module (or one importing itself): each holds a cycle. Tarjan. */
export function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (start) => {
    // Iterative, so a long chain of imports cannot overflow the call stack.
    const work = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfImport = (graph.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfImport) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One circle inside a component, as `a → b → … → a`, to show where to cut. */
export function oneCircle(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const chain = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)) chain.splice(1, 0, at);
        return [...chain, start].join(' → ');
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return component.join(', ');
}

/** Every finding of the rules, as lines; empty when the tree keeps them. */
export async function importFindings(root) {
  const files = sourceFiles(root);
  const graph = importGraph(root, files);
  const lines = directionViolations(root, files, graph).map(({ from, to, why }) => `${from} imports ${to}: ${why}`);
  for (const { file, why } of sharedFloorViolations(root, files, graph)) lines.push(`${file} ${why}`);
  lines.push(...floorViolations(root, files, graph));
  for (const component of cycles(graph)) lines.push(`import cycle of ${component.length} modules: ${oneCircle(graph, component)}`);
  return lines;
}

async function main() {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const findings = await importFindings(root);
  if (findings.length === 0) {
    console.log(`imports: ${sourceFiles(root).length} modules, shared/ one way and isomorphic, server/ by floors, no cycle`);
    return;
  }
  console.error(`imports: ${findings.length} finding(s)\n${findings.map((line) => `  ${line}`).join('\n')}`);
  process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
