/** Every upstream answer (docs/product.md §7, §8): code 0 is success, anything else is an empty result. */
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
  /** Some calls (site config) also carry the server time in unix seconds. */
  time?: number;
}

/** An answer shaped like an envelope (a numeric code); its data is still the caller's to check. */
export function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';
}

/** What a request that never got a response becomes (docs/product.md §8). */
export const NO_RESPONSE_ENVELOPE: Envelope<null> = Object.freeze({ code: 500, msg: '失败', data: null });
