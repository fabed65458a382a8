/**
 * The reference content API, run in-process when no UPSTREAM_URL is set, so a fresh clone serves pages with one
 * command. It is not part of the production server bundle: it is loaded from its own bundle
 * (dist/reference-api/server.cjs, built beside the server by scripts/build.mjs) only in that case, so a portal
 * pointed at a real CMS never loads the fake one (its generated dataset, its MP4 writer).
 */
import path from 'node:path';
import { PROJECT_ROOT } from './render/assets';

/** What the portal uses of the running reference API (scripts/reference-api/server.ts startReferenceApi). */
export interface EmbeddedUpstream {
  url: string;
  close(): Promise<void>;
}

type StartReferenceApi = (options: { port: number; host: string; publicUrl: string }) => Promise<EmbeddedUpstream>;

export const EMBEDDED_UPSTREAM_BUNDLE = path.join(PROJECT_ROOT, 'dist/reference-api/server.cjs');

function isReferenceApiModule(value: unknown): value is { startReferenceApi: StartReferenceApi } {
  return typeof value === 'object' && value !== null && typeof (value as { startReferenceApi?: unknown }).startReferenceApi === 'function';
}

/** Starts the reference API on a loopback port; media URLs stay site-relative (the portal serves /media). */
export async function startEmbeddedUpstream(): Promise<EmbeddedUpstream> {
  // A plain require of a path computed at run time: esbuild leaves it alone, so the API stays out of this bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an import() would be bundled by esbuild
  const loaded: unknown = require(EMBEDDED_UPSTREAM_BUNDLE);
  if (!isReferenceApiModule(loaded)) throw new Error(`${EMBEDDED_UPSTREAM_BUNDLE} does not export startReferenceApi: run \`npm run build\``);
  return loaded.startReferenceApi({ port: 0, host: '127.0.0.1', publicUrl: '' });
}
