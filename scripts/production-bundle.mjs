// What makes a bundle a production one, shared by the browser and server builds (scripts/build.mjs) and the
// TypeScript runner of the benchmark (scripts/run-ts.mjs), plus the check that fails a build bundling a
// library's development build.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Replaced in bundled code, so React and friends keep only their production branch. */
export const PRODUCTION_DEFINE = { 'process.env.NODE_ENV': '"production"' };

/**
 * React Router 7's package exports name its development build under every condition (its Vite plugin swaps in
 * `dist/production` itself), so a plain bundler or Node's `require` gets the development one: invariant
 * checks, warnings and slower path handling on every render. This points both entries at the production build
 * (react-router-dom, which the portal imports, only re-exports them).
 */
export const reactRouterProduction = {
  name: 'react-router-production',
  setup(build) {
    const routerRoot = path.dirname(require.resolve('react-router/package.json', { paths: [path.dirname(require.resolve('react-router-dom/package.json'))] }));
    const extension = build.initialOptions.format === 'esm' ? 'mjs' : 'js';
    const files = {
      'react-router': path.join(routerRoot, `dist/production/index.${extension}`),
      'react-router/dom': path.join(routerRoot, `dist/production/dom-export.${extension}`),
    };
    build.onResolve({ filter: /^react-router(\/dom)?$/ }, (args) => ({ path: files[args.path] }));
  },
};

/** Packages bundled into the server so the production define applies to them; the rest stays in node_modules. */
const SERVER_BUNDLED = /^(react|react-dom|react-router|react-router-dom|scheduler)(\/|$)/;

/**
 * `packages: 'external'` except React, React DOM and React Router: they pick their build from `process.env.NODE_ENV` when
 * loaded from node_modules, so a server started without NODE_ENV=production rendered with development builds.
 * Bundled, the define decides.
 * What a bundled package imports is bundled with it (its own dependency versions).
 */
export const serverExternals = {
  name: 'server-externals',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (SERVER_BUNDLED.test(args.path)) return undefined;
      if (args.importer.split(path.sep).includes('node_modules')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Input files of a bundle that are a library's development build (none may be). */
const DEVELOPMENT_BUILD = [/[\\/]dist[\\/]development[\\/]/, /[.-]development\.(c|m)?js$/];

/**
 * What in a bundle is, or may be at run time, a library's development build: bundled files from a development
 * build, and packages left external that choose their build when loaded (React by NODE_ENV).
 */
export function developmentBuildsIn(metafile) {
  const bundled = Object.keys(metafile.inputs).filter((input) => input.includes('node_modules') && DEVELOPMENT_BUILD.some((pattern) => pattern.test(input)));
  const external = Object.values(metafile.inputs)
    .flatMap((input) => input.imports)
    .filter((imported) => imported.external && SERVER_BUNDLED.test(imported.path))
    .map((imported) => `${imported.path} (external: its build is chosen at run time)`);
  return [...new Set([...bundled, ...external])];
}

/** Throws, naming the files, when a bundle took in a development build. */
export function assertProductionBundle(metafile, bundleName) {
  const found = developmentBuildsIn(metafile);
  if (found.length === 0) return;
  throw new Error(`${bundleName} bundles development builds (production ones are required):\n  ${found.join('\n  ')}`);
}
