/**
 * Both bundles carry the production build of every library, and the build refuses one that does not. Runs the
 * real esbuild options of scripts/build.mjs (in memory) in a child Node process, as the build does, and again
 * with each production setting taken away, which the check must name.
 */
import { execFile } from 'node:child_process';
import { PROJECT_ROOT } from '../../server/render/assets';

/** Development inputs the check finds in each variant, and the message the build would fail with. */
type Findings = Record<string, { found: string[]; error: string }>;

const VARIANTS = `
import { build } from 'esbuild';
import { clientOptions as clientBuildOptions, serverOptions as serverBuildOptions } from './scripts/build.mjs';
import { assertProductionBundle, developmentBuildsIn } from './scripts/production-bundle.mjs';
const inMemory = { write: false, sourcemap: false, minify: false, metafile: true, logLevel: 'silent' };
const variants = {
  client: clientBuildOptions,
  server: serverBuildOptions,
  clientWithoutDefine: { ...clientBuildOptions, define: {} },
  serverWithPackagesExternal: { ...serverBuildOptions, plugins: [], packages: 'external' },
  serverWithoutDefine: { ...serverBuildOptions, define: {} },
};
const findings = {};
for (const [name, options] of Object.entries(variants)) {
  const { metafile } = await build({ ...options, ...inMemory });
  let error = '';
  try { assertProductionBundle(metafile, name); } catch (thrown) { error = thrown.message; }
  findings[name] = { found: developmentBuildsIn(metafile), error };
}
process.stdout.write(JSON.stringify(findings));
`;

function bundleFindings(): Promise<Findings> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', VARIANTS], { cwd: PROJECT_ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Findings);
    });
  });
}

describe('production builds in both bundles', () => {
  let findings: Findings;
  beforeAll(async () => {
    findings = await bundleFindings();
  }, 120_000);

  it('bundles no development build in the browser or the server bundle', () => {
    expect(findings.client).toEqual({ found: [], error: '' });
    expect(findings.server).toEqual({ found: [], error: '' });
  });

  it("names React's development files when NODE_ENV is not defined", () => {
    for (const variant of ['clientWithoutDefine', 'serverWithoutDefine']) {
      const { found, error } = findings[variant]!;
      expect(found.some((file) => /react-dom.*\.development\.js$/.test(file))).toBe(true);
      expect(error).toContain('bundles development builds');
    }
  });

  it('refuses React left external in the server, where NODE_ENV at run time would choose its build', () => {
    const { found } = findings.serverWithPackagesExternal!;
    // The server renders with React DOM's stream renderer (its Bun build: server/render/flushing-destination.ts).
    expect(found).toEqual(expect.arrayContaining([expect.stringMatching(/^react-dom\/server\.bun .*external/), expect.stringMatching(/^react .*external/)]));
  });
});
