/**
 * Paints the reference pictures off the API's thread. Encoding a JPEG in JavaScript takes tens to hundreds of
 * milliseconds; done inline it stalls every JSON answer queued behind it, and when the API runs inside the portal's
 * process (`npm start` with no UPSTREAM_URL, and the test suites) it stalls the portal too. One worker thread paints
 * jobs in turn; the bytes are kept in one bounded cache for the process, keyed by the job, so every API instance
 * (the suites start many) shares what is painted, and a picture asked for twice at once is painted once.
 *
 * The worker runs the built bundle (dist/reference-api/picture-worker.cjs, made by `npm run build`); where it is
 * missing (a run straight from the sources before any build) pictures are painted inline, as before.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { LRUCache } from 'lru-cache';
import { jobKey, paintJob, type PictureJob } from './picture-job';

/** Two levels below the repository root both as a source file and as a bundle (scripts/… or dist/…). */
export const PICTURE_WORKER_BUNDLE = path.resolve(__dirname, '../../dist/reference-api/picture-worker.cjs');
const CACHE_BYTES = 64 * 1024 * 1024;

interface Pending {
  resolve: (bytes: Buffer) => void;
  reject: (error: Error) => void;
}

class PicturePainter {
  private readonly painted = new LRUCache<string, Buffer>({ maxSize: CACHE_BYTES, sizeCalculation: (bytes) => bytes.length });
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  private readonly pending = new Map<number, Pending>();
  private worker: Worker | null = null;
  private nextId = 1;

  constructor(private readonly workerFile: string) {}

  paint(job: PictureJob): Promise<Buffer> {
    const key = jobKey(job);
    const cached = this.painted.get(key);
    if (cached) return Promise.resolve(cached);
    const running = this.inFlight.get(key);
    if (running) return running;
    const painting = this.paintOnce(job).then(
      (bytes) => {
        this.painted.set(key, bytes);
        this.inFlight.delete(key);
        return bytes;
      },
      (error: unknown) => {
        this.inFlight.delete(key);
        throw error;
      },
    );
    this.inFlight.set(key, painting);
    return painting;
  }

  private paintOnce(job: PictureJob): Promise<Buffer> {
    const worker = this.workerThread();
    if (!worker) return Promise.resolve(Buffer.from(paintJob(job)));
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Only while a job is out does the thread hold the process open.
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, job });
    });
  }

  private workerThread(): Worker | null {
    if (this.worker) return this.worker;
    if (!existsSync(this.workerFile)) return null;
    const worker = new Worker(this.workerFile);
    worker.unref();
    worker.on('message', ({ id, bytes }: { id: number; bytes: Uint8Array }) => this.settle(id, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the picture painter stopped (exit ${code})`)));
    this.worker = worker;
    return worker;
  }

  private settle(id: number, bytes: Buffer): void {
    const job = this.pending.get(id);
    if (!job) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    job.resolve(bytes);
  }

  /** A dead thread fails what it held; the next job starts a new one. */
  private fail(error: Error): void {
    this.worker = null;
    const held = [...this.pending.values()];
    this.pending.clear();
    for (const job of held) job.reject(error);
  }
}

let shared: PicturePainter | null = null;

/** The process's painter, started on first use. */
export function paintPictureJob(job: PictureJob): Promise<Buffer> {
  shared ??= new PicturePainter(PICTURE_WORKER_BUNDLE);
  return shared.paint(job);
}
