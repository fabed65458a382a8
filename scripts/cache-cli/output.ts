/**
 * What every cache CLI command shares: exit codes, the error that carries one, the global options, printing
 * (a versioned JSON document with --json, lines for people otherwise) and the parsers of option values.
 * Kept free of Redis and the route table, so `--help` loads nothing else.
 */
import stringWidth from 'string-width';

export const EXIT = { ok: 0, failed: 1, usage: 2, redis: 3, notFound: 4, partial: 5 } as const;

/** What each exit code means, for `--help` of the program and of every command (docs/operations.md). */
export const EXIT_MEANINGS: Record<keyof typeof EXIT, string> = {
  ok: 'done',
  failed: 'failed (no instance answered, a sitemap could not be read, a warm request failed)',
  usage: 'bad usage or input (the message names the option)',
  redis: 'Redis unreachable, or not a Redis server',
  notFound: 'nothing found (inspect of an uncached page, purge or policy unset that matched nothing)',
  partial: 'partial answer: some instances did not answer (or are not healthy); each is named, the rest is reported',
};

/** Bumped only when a field of a --json document changes meaning or type; fields may be added within a version. */
export const JSON_VERSION = 1;

export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number,
    /** For --json: the document still printed (a miss is a document too). */
    readonly document?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface Globals {
  redis: string;
  prefix: string;
  json: boolean;
  /** Seconds any one HTTP request to a portal may take (--timeout); a hung instance is reported, never waited for. */
  timeout: number;
}

/** One JSON document (`{"version": 1, "command": …, …}`) or the human lines. */
export function print(globals: Globals, command: string, data: Record<string, unknown>, human: () => string): void {
  process.stdout.write(globals.json ? `${JSON.stringify(jsonDocument(command, data), null, 2)}\n` : `${human()}\n`);
}

export function jsonDocument(command: string, data: Record<string, unknown>): Record<string, unknown> {
  return { version: JSON_VERSION, command, ...data };
}

export function positiveInt(option: string, max: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || !Number.isInteger(parsed) || parsed < 1 || parsed > max) {
      throw new CliError(`${option} must be a whole number from 1 to ${max}, not "${value}"`, EXIT.usage);
    }
    return parsed;
  };
}

const DURATION_UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** `90`, `90s`, `10m`, `1h30m`, `2d` → seconds; null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const trimmed = text.trim().toLowerCase();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!/^(\d+[smhdw])+$/.test(trimmed)) return null;
  let seconds = 0;
  for (const [, amount, unit] of trimmed.matchAll(/(\d+)([smhdw])/g)) seconds += Number(amount) * DURATION_UNITS[unit!]!;
  return seconds;
}

/** A duration for people: 600 → "10m", 90 → "1m30s", 0 → "0s". */
export function formatDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest < size) continue;
    parts.push(`${Math.floor(rest / size)}${unit}`);
    rest %= size;
  }
  return parts.join('');
}

/** An http(s) base URL of a running portal; any other value is refused naming the option. */
export function portalUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`--portal "${value}" is not a URL (e.g. http://127.0.0.1:3000)`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--portal "${value}" must be an http:// or https:// URL`, EXIT.usage);
  return url.origin;
}

/**
 * Rows as aligned columns. Widths are display widths (string-width: a Chinese character takes two columns),
 * so a site's name lines up with the domains; `right` lists the columns of numbers, aligned right.
 */
export function table(rows: readonly (readonly string[])[], right: readonly number[] = []): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, stringWidth(cell))));
  return rows
    .map((row) =>
      row
        .map((cell, column) => {
          const pad = ' '.repeat(widths[column]! - stringWidth(cell));
          return right.includes(column) ? pad + cell : column === row.length - 1 ? cell : cell + pad;
        })
        .join('  '),
    )
    .join('\n');
}

export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch() hides the socket error (ECONNREFUSED…) in `cause`.
  const cause = (error as Error & { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
}
