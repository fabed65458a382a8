/**
 * The browser entry and swiper's chunk of the real build (npm test builds it first) carry V8's explicit compile
 * hint on their first line (scripts/compile-hints.mjs), and the entry's source map still points at the sources
 * after the added line.
 */
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { CLIENT_DIST } from '../../server/render/assets';

const HINT = '//# allFunctionsCalledOnLoad';

const manifest = JSON.parse(readFileSync(path.join(CLIENT_DIST, 'manifest.json'), 'utf8')) as {
  entry: { js: string[] };
  modules: Record<string, string[]>;
};
const fileOf = (publicPath: string) => path.join(CLIENT_DIST, publicPath.replace(/^\//, ''));

describe('compile hints on the browser entry', () => {
  const entry = fileOf(manifest.entry.js[0]!);
  const code = readFileSync(entry, 'utf8');

  const firstLineOf = (module: string) => readFileSync(fileOf(manifest.modules[module]![0]!), 'utf8').split('\n')[0];

  it("asks for eager compilation on the first line of the entry and of swiper's chunk, not of hls.js", () => {
    expect(code.split('\n')[0]).toBe(HINT);
    expect(code.indexOf(HINT, 1)).toBe(-1);
    expect(firstLineOf('shared/ui/blocks/carousel-engine.ts')).toBe(HINT);
    const hls = Object.keys(manifest.modules).find((module) => module.includes('hls.js'));
    expect(hls).toBeDefined();
    expect(firstLineOf(hls!)).not.toBe(HINT);
  });

  it('keeps the source map in step with the added line', () => {
    const map = new SourceMap(JSON.parse(readFileSync(`${entry}.map`, 'utf8')) as SourceMapPayload);
    const lines = code.split('\n');
    const line = lines.findIndex((text) => text.includes('portal state missing from the document'));
    const column = lines[line]!.indexOf('portal state missing from the document');
    const found = map.findEntry(line, column);
    expect('originalSource' in found && found.originalSource).toMatch(/client\/entry\.tsx$/);
    const source = readFileSync(path.resolve(__dirname, '../../client/entry.tsx'), 'utf8').split('\n');
    expect('originalLine' in found && source[found.originalLine]).toContain('portal state missing from the document');
  });
});
