import type { RawPagedList } from '../../server/upstream/wire';

/**
 * Parameter parsing with the CMS's rules: ids are plain decimal digits, pages start at 1, page sizes are capped
 * at 50. Anything else is '参数错误' (code 40000), never a thrown error or an HTTP 4xx.
 */
export const MAX_PAGE_SIZE = 50;

export class ParamError extends Error {}

const DIGITS = /^\d{1,10}$/;
/** Ids are the CMS database's signed 32-bit integers: any id up to this is well-formed, if perhaps unknown (40004). */
const MAX_ID = 2_147_483_647;

/** A numeric id from a path segment, query or body field (JSON bodies may carry real numbers). */
export function parseId(value: unknown): number {
  const id = typeof value === 'string' && DIGITS.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof id === 'number' && Number.isInteger(id) && id >= 0 && id <= MAX_ID) return id;
  throw new ParamError(`not an id: ${String(value)}`);
}

/** Missing or empty means the default. */
function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

export function parsePage(value: unknown): number {
  if (isAbsent(value)) return 1;
  const page = parseId(value);
  if (page < 1) throw new ParamError('page < 1');
  return page;
}

export function parsePageSize(value: unknown, fallback: number): number {
  if (isAbsent(value)) return fallback;
  const size = parseId(value);
  if (size < 1 || size > MAX_PAGE_SIZE) throw new ParamError(`page size out of range: ${size}`);
  return size;
}

export function parseOptionalId(value: unknown): number | null {
  return isAbsent(value) ? null : parseId(value);
}

export function paginate<T>(items: readonly T[], page: number, size: number): T[] {
  return items.slice((page - 1) * size, page * size);
}

/** A positive id, or null: for calls that answer a missing or bad id with their own message. */
export function positiveInt(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return /^[1-9]\d{0,9}$/.test(text) ? Number(text) : null;
}

/** batch_exist lists come as an array or a comma-separated string, depending on the caller; at most 100. */
export function idList(value: unknown): number[] | null {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  if (!items || items.length > 100) return null;
  const ids = items.map(positiveInt);
  return ids.every((id): id is number => id !== null) ? ids : null;
}

const DEFAULT_LIST_SIZE = 10;

/** The reader's lists: page (default 1) and page_size (default 10, at most 50), or null for anything else. */
export function listPaging(query: URLSearchParams): { page: number; size: number } | null {
  const page = positiveInt(query.get('page') ?? '1');
  const size = positiveInt(query.get('page_size') ?? String(DEFAULT_LIST_SIZE));
  if (page === null || size === null || size > MAX_PAGE_SIZE) return null;
  return { page, size };
}

export function pagedList<T>(items: readonly T[], paging: { page: number; size: number }): RawPagedList<T> {
  const { page, size } = paging;
  return { list: items.slice((page - 1) * size, page * size), total: items.length, page, page_size: size };
}

/** An absolute http(s) URL (a redirect target, a page to sign for). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
