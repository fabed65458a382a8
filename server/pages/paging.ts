/** Page numbers from query strings: a plain positive integer or nothing, so `?page=abc` cannot mint cache entries. */
export const MAX_PAGE = 1000;

/** undefined → 1; a valid number → it; anything else → null (the caller answers 404). */
export function pageFromQuery(value: string | null): number | null {
  if (value === null) return 1;
  if (!/^[1-9]\d{0,3}$/.test(value)) return null;
  const page = Number(value);
  return page <= MAX_PAGE ? page : null;
}

export function lastPage(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
