/**
 * How a held page's body goes out, worked out once per page: pieces long enough to be written as they are, and
 * each run of short pieces laid out once as a template with holes where a response's own bytes go (its nonce;
 * in a gzip body also the CRC). A response copies each template and writes its bytes into the holes, one
 * allocation and one copy per run, instead of building the list of pieces and concatenating the runs anew
 * every time (docs/benchmark.md, "The L1 hit's own work").
 */

/** A place for a response's own bytes, in the list a plan is made from: `fill` indexes the fills given per response. */
export interface Hole {
  fill: number;
  length: number;
}

export type Part = Buffer | Hole;

interface Template {
  bytes: Buffer;
  holes: ReadonlyArray<{ at: number; fill: number; length: number }>;
}

export interface BodyPlan {
  chunks: ReadonlyArray<Buffer | Template>;
  /** The body's length in bytes, holes filled. */
  length: number;
}

/**
 * Pieces shorter than this are copied into their run's template: a page has a dozen nonces in its head, and a
 * socket write per 75-byte piece costs more than copying them. Longer pieces are written as they are.
 */
const WRITTEN_AS_IS = 4096;

export function planBody(parts: readonly Part[]): BodyPlan {
  const chunks: Array<Buffer | Template> = [];
  let run: Part[] = [];
  let length = 0;
  const closeRun = () => {
    if (run.length > 0) chunks.push(templateOf(run));
    run = [];
  };
  for (const part of parts) {
    length += part.length;
    if (part.length === 0) continue;
    if (Buffer.isBuffer(part) && part.length >= WRITTEN_AS_IS) {
      closeRun();
      chunks.push(part);
    } else {
      run.push(part);
    }
  }
  closeRun();
  return { chunks, length };
}

/** A run without holes is one buffer made now; with holes, the template a response fills. */
function templateOf(run: readonly Part[]): Buffer | Template {
  if (run.every((part): part is Buffer => Buffer.isBuffer(part))) return run.length === 1 ? run[0]! : Buffer.concat(run);
  const bytes = Buffer.alloc(run.reduce((total, part) => total + part.length, 0));
  const holes: Array<{ at: number; fill: number; length: number }> = [];
  let at = 0;
  for (const part of run) {
    if (Buffer.isBuffer(part)) part.copy(bytes, at);
    else holes.push({ at, fill: part.fill, length: part.length });
    at += part.length;
  }
  return { bytes, holes };
}

/** The body as chunks to write in order, each hole holding its fill; throws if a fill's length is not its hole's. */
export function fillBody(plan: BodyPlan, fills: readonly Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  for (const chunk of plan.chunks) out.push(Buffer.isBuffer(chunk) ? chunk : filled(chunk, fills));
  return out;
}

function filled(template: Template, fills: readonly Buffer[]): Buffer {
  // A buffer of its own per response: the socket may still hold an earlier response's copy.
  const out = Buffer.allocUnsafe(template.bytes.length);
  template.bytes.copy(out, 0);
  for (const hole of template.holes) {
    const fill = fills[hole.fill];
    if (fill?.length !== hole.length) throw new Error(`body plan: fill ${hole.fill} must be ${hole.length} bytes`);
    fill.copy(out, hole.at);
  }
  return out;
}
