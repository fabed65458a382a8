/** The client build's manifest: the entry's files, each page's chunks (for modulepreload), and the build id. */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Manifest {
  buildId: string;
  entry: { js: string[]; css: string[] };
  modules: Record<string, string[]>;
}

export interface Assets {
  buildId: string;
  /** Directory served at /assets. */
  directory: string;
  entryScript: string;
  styles: string[];
  /** Files to modulepreload: the entry's and the chunks it imports (the pages are in the entry). */
  preloads: string[];
}

export const PROJECT_ROOT = path.resolve(__dirname, '../..');
export const CLIENT_DIST = path.join(PROJECT_ROOT, 'dist/client');

export class AssetsMissingError extends Error {
  constructor(manifestPath: string) {
    super(`client build not found at ${manifestPath}: run \`npm run build\` (npm start does it when missing)`);
    this.name = 'AssetsMissingError';
  }
}

export function loadAssets(clientDist: string = CLIENT_DIST): Assets {
  const manifestPath = path.join(clientDist, 'manifest.json');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  } catch {
    throw new AssetsMissingError(manifestPath);
  }
  const [entryScript, ...entryChunks] = manifest.entry.js;
  if (!entryScript) throw new AssetsMissingError(manifestPath);
  return {
    buildId: manifest.buildId,
    directory: path.join(clientDist, 'assets'),
    entryScript,
    styles: manifest.entry.css,
    preloads: [...new Set([entryScript, ...entryChunks])],
  };
}
