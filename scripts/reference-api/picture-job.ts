/**
 * One picture to paint: what it shows and its size. Everything the painter needs is in the job, so the same job
 * gives the same JPEG in any thread and any reference API instance, and a job is its own cache key.
 */
import { encode as encodeJpeg } from 'jpeg-js';
import { paintNewspaperPage, paintPicture, type PageSpec, type PictureSpec } from './pictures';

export type PictureJob =
  { kind: 'picture'; spec: PictureSpec; width: number; height: number } | { kind: 'page'; spec: PageSpec; width: number; height: number };

/** Modest quality: pictures stay small and quick to encode, and they are illustrations, not evidence. */
const JPEG_QUALITY = 72;

export function jobKey(job: PictureJob): string {
  return JSON.stringify(job);
}

export function paintJob(job: PictureJob): Uint8Array {
  const raster = job.kind === 'page' ? paintNewspaperPage(job.spec, job.width, job.height) : paintPicture(job.spec, job.width, job.height);
  return encodeJpeg({ width: raster.width, height: raster.height, data: raster.data }, JPEG_QUALITY).data;
}
