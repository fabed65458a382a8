import { Writable } from 'node:stream';

/**
 * Where React writes a page. The portal renders with React DOM's stream renderer for Bun (`react-dom/server.bun`):
 * the same Fizz renderer as the Node build, in plain JavaScript over Node's streams, which writes every chunk as a
 * string and calls flush() when a flush of its is complete. The Node build encodes each of a page's thousands of
 * small chunks (7,800 on home) into 4 KiB views one by one, a view object and an encodeInto call each, and runs
 * every render inside an AsyncLocalStorage; that made a streamed render cost twice a renderToString of the same
 * tree (docs/benchmark.md, "The stream renderer's chunks"). Here a flush's strings are joined and encoded once.
 * The only Bun API in that build (Bun.hash) serves server actions' form state, which the portal has none of; it
 * resumes a block on a timer where the Node build uses setImmediate (a slow block leaves up to a millisecond
 * later). A test holds its documents byte for byte to the Node build's on every kind of page.
 *
 * A Writable only in type and for its events: React calls write, flush, end, destroy and on, nothing else.
 */
export class FlushingDestination extends Writable {
  private pending = '';
  /** While held, flushes wait: the head, the shell and the entry script go out as one write. */
  private held = true;
  private finished = false;

  constructor(
    private readonly send: (bytes: Buffer) => void,
    private readonly ended: (clean: boolean) => void,
  ) {
    super();
  }

  override write(chunk: string | Uint8Array): boolean {
    this.pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }

  /** Adds text of the document's own (head, entry script, end) to the pending flush. */
  add(text: string): void {
    this.pending += text;
  }

  /** Sends what was written since the last flush as one new buffer, unless held. */
  flush(): void {
    if (this.held || this.pending.length === 0) return;
    const bytes = Buffer.from(this.pending, 'utf8');
    this.pending = '';
    this.send(bytes);
  }

  /** Ends the hold and sends what is pending. */
  release(): void {
    this.held = false;
    this.flush();
  }

  override end(): this {
    this.finish(true);
    return this;
  }

  /** React destroys its destination when the render fails after the shell: the document ends, not clean. */
  override _destroy(_error: Error | null, callback: (error?: Error | null) => void): void {
    this.finish(false);
    callback(null);
  }

  private finish(clean: boolean): void {
    if (this.finished) return;
    this.finished = true;
    this.ended(clean);
  }
}
