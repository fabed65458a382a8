/**
 * Folding esbuild's runtime-helper chunk into the entry (scripts/inline-micro-chunks.mjs): a real esbuild build of
 * a fixture that makes the chunk (a CommonJS import and a lazy module), folded, then run, and its source maps read.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';

const FIXTURE = path.resolve(__dirname, '../fixtures/micro-chunks');
const FOLD = path.resolve(__dirname, '../../scripts/inline-micro-chunks.mjs');
/** scripts/inline-micro-chunks.mjs's limit. */
const MICRO_CHUNK_BYTES = 1024;

function node(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: FIXTURE }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)));
  });
}

/** Runs the build script's fold as the build does (a plain ESM module), on a metafile written to disk. */
async function fold(outdir: string, metafile: Metafile, entryFile: string): Promise<{ folded: string[]; metafile: Metafile }> {
  const metafilePath = path.join(outdir, 'metafile.json');
  writeFileSync(metafilePath, JSON.stringify(metafile));
  const folded = JSON.parse(await node([FOLD, FIXTURE, metafilePath, entryFile])) as string[];
  return { folded, metafile: JSON.parse(readFileSync(metafilePath, 'utf8')) as Metafile };
}

async function buildFixture(outdir: string): Promise<{ metafile: Metafile; entryFile: string }> {
  const result = await build({
    absWorkingDir: FIXTURE,
    entryPoints: ['entry.js'],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    minify: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'silent',
  });
  const entryFile = Object.entries(result.metafile.outputs).find(([file, output]) => output.entryPoint === 'entry.js' && file.endsWith('.js'))![0];
  return { metafile: result.metafile, entryFile };
}

function smallChunks(metafile: Metafile): string[] {
  return Object.entries(metafile.outputs)
    .filter(([file, output]) => file.endsWith('.js') && !output.entryPoint && output.bytes < MICRO_CHUNK_BYTES)
    .map(([file]) => file);
}

/** Where the first occurrence of `text` in a built file comes from, by its source map. */
function origin(file: string, text: string): { source: string; line: number } {
  const code = readFileSync(file, 'utf8');
  const index = code.indexOf(text);
  const before = code.slice(0, index);
  const line = before.split('\n').length - 1;
  const column = index - (before.lastIndexOf('\n') + 1);
  const map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload);
  const entry = map.findEntry(line, column) as { originalSource?: string; originalLine?: number };
  return { source: path.basename(entry.originalSource ?? ''), line: entry.originalLine ?? -1 };
}

function sourceLine(file: string, text: string): number {
  return readFileSync(path.join(FIXTURE, file), 'utf8')
    .split('\n')
    .findIndex((line) => line.includes(text));
}

describe('folding micro chunks into the entry', () => {
  let outdir: string;

  beforeEach(() => {
    outdir = mkdtempSync(path.join(os.tmpdir(), 'micro-chunks-'));
  });
  afterEach(() => rmSync(outdir, { recursive: true, force: true }));

  it('leaves no chunk under 1 KiB, and the build still runs, lazy module included', async () => {
    const { metafile, entryFile } = await buildFixture(outdir);
    const before = smallChunks(metafile);
    // The fixture must make the case: esbuild's helpers in a chunk of their own.
    expect(before).toHaveLength(1);
    const after = await fold(outdir, metafile, entryFile);
    expect(after.folded).toEqual(before);
    expect(smallChunks(after.metafile)).toEqual([]);
    expect(readdirSync(path.join(outdir, 'chunks')).filter((file) => file.startsWith('chunk-'))).toEqual([]);
    for (const output of Object.values(after.metafile.outputs)) expect(output.imports.map((imp) => imp.path)).not.toContain(before[0]);
    writeFileSync(path.join(outdir, 'package.json'), '{"type":"module"}');
    const entryUrl = pathToFileURL(path.join(FIXTURE, entryFile)).href;
    const ran = await node(['--input-type=module', '-e', `const built = await import(${JSON.stringify(entryUrl)}); console.log(await built.run());`]);
    expect(ran.trim()).toBe('hello entry marker lazy marker');
  });

  it('keeps the source maps of the entry and of the lazy module pointing at their sources', async () => {
    const { metafile, entryFile } = await buildFixture(outdir);
    await fold(outdir, metafile, entryFile);
    const lazyFile = Object.keys(metafile.outputs).find((file) => /chunks\/lazy-.*\.js$/.test(file))!;
    expect(origin(path.join(FIXTURE, entryFile), 'entry marker')).toEqual({ source: 'entry.js', line: sourceLine('entry.js', 'entry marker') });
    expect(origin(path.join(FIXTURE, lazyFile), 'lazy marker')).toEqual({ source: 'lazy.js', line: sourceLine('lazy.js', 'lazy marker') });
  });

  it('leaves a small chunk alone when a lazy module imports names from it', async () => {
    const { metafile, entryFile } = await buildFixture(outdir);
    const [chunk] = smallChunks(metafile);
    const lazyFile = Object.keys(metafile.outputs).find((file) => /chunks\/lazy-.*\.js$/.test(file))!;
    const lazyPath = path.join(FIXTURE, lazyFile);
    const chunkName = path.basename(chunk!);
    writeFileSync(lazyPath, readFileSync(lazyPath, 'utf8').replace(`import"./${chunkName}";`, `import{a as helper}from"./${chunkName}";`));
    const after = await fold(outdir, metafile, entryFile);
    expect(after.folded).toEqual([]);
    expect(smallChunks(after.metafile)).toEqual([chunk]);
  });
});
