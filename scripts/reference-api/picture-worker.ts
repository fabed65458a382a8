/**
 * The painter's thread (built to dist/reference-api/picture-worker.cjs): paints and encodes the jobs it is sent,
 * one at a time, and sends the bytes back, so the API's own thread never stalls on a JPEG.
 */
import { parentPort } from 'node:worker_threads';
import { paintJob, type PictureJob } from './picture-job';

parentPort?.on('message', ({ id, job }: { id: number; job: PictureJob }) => {
  // Copied, not transferred: the encoder's Buffer may be a view of a shared pool.
  parentPort?.postMessage({ id, bytes: paintJob(job) });
});
