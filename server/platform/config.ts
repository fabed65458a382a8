/**
 * Configuration from environment variables, validated once at start. Every bad value is reported in one line
 * naming the variable, and the server refuses to start rather than run half-configured.
 */
import proxyaddr from 'proxy-addr';
import { distance as levenshtein } from 'fastest-levenshtein';
import { z } from 'zod';
import { ALL_SITES } from '../../shared/sites';
import { parseVisitStatsIds } from '../../shared/visit-stats';
import { parseRedisTarget, redactRedisUrl, RedisUrlError } from './redis-target';

const port = z.coerce.number().int().min(0).max(65535);
const positiveMs = z.coerce.number().int().min(1).max(600_000);
const optionalUrl = (protocols: readonly string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || isUrlWithProtocol(value, protocols), {
      message: `must be a URL starting with ${protocols.join(' or ')}`,
    });

/** REDIS_URL: one server, a Sentinel set or a cluster (server/platform/redis-target.ts); the parser says what is wrong. */
const optionalRedisUrl = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === '' ? undefined : value))
  .superRefine((value, ctx) => {
    if (value === undefined) return;
    try {
      parseRedisTarget(value);
    } catch (error) {
      if (!(error instanceof RedisUrlError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
    }
  });

function isUrlWithProtocol(value: string, protocols: readonly string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

export const REFERENCE_API_IN_PROCESS = 'in-process';

/** A comma-separated list of http(s) origins (no path; a trailing slash is taken), e.g. `http://varnish:6081`. */
function originList(example: string) {
  return z
    .string()
    .trim()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .refine((origins) => origins.every((origin) => isUrlWithProtocol(origin, ['http:', 'https:']) && new URL(origin).origin === origin.replace(/\/$/, '')), {
      message: `must be comma-separated origins like ${example} (no path)`,
    })
    .transform((origins) => origins.map((origin) => new URL(origin).origin));
}

const SITE_HOSTS = new Set(ALL_SITES.map((site) => site.domain));

const schema = z.object({
  PORT: port.default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  UPSTREAM_URL: optionalUrl(['http:', 'https:']),
  // The generated reference dataset instead of the newsroom's content API: only when asked for by name (npm start
  // and npm run dev ask for it when UPSTREAM_URL is unset; see contentSourceOf).
  REFERENCE_API: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || value === REFERENCE_API_IN_PROCESS, { message: `must be "${REFERENCE_API_IN_PROCESS}" or unset` }),
  UPSTREAM_TIMEOUT_MS: positiveMs.default(3000),
  // The largest content API answer read (bytes): a bigger one is a failed call (stale-if-error or 503), so one
  // runaway article cannot tie up a render, the cache and every reader's event loop. 2 MiB is far above any real article.
  UPSTREAM_MAX_BODY_BYTES: z.coerce.number().int().min(65_536).max(67_108_864).default(2_097_152),
  REDIS_URL: optionalRedisUrl,
  // Sessions and pending sign-ins on a Redis of their own (noeviction), apart from the evictable cache. Unset:
  // they share REDIS_URL's.
  SESSION_REDIS_URL: optionalRedisUrl,
  CACHE_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,32}$/i, 'letters, digits, _ and - only (1–32)')
    .default('portal'),
  // With Redis: the in-process tier in front of it (0 turns it off). Without Redis: the whole cache (≥ 1).
  L1_CACHE_MAX_MB: z.coerce.number().int().min(0).max(16_384).default(256),
  // With Redis unreachable: how long L1 keeps answering from what it holds, without seeing purges (0: bypass
  // L1 at once, every page renders). A purge made meanwhile reaches this instance at most this late.
  L1_OUTAGE_SERVE_S: z.coerce.number().int().min(0).max(86_400).default(300),
  /** Past L1_OUTAGE_SERVE_S: seconds an L1 entry counts fresh (and as many in grace) until Redis is back. */
  L1_OUTAGE_TTL_S: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * A second listener for /metrics and /_internal (and the probes), so the public port (the Ingress's) has no such
   * path; unset: they are served on PORT, for a balancer that refuses them (deploy/nginx.conf).
   */
  INTERNAL_PORT: z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(1).max(65_535).optional()),
  // A Redis command slower than this counts as a miss (fail fast: a slow Redis must not slow every page).
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(1000),
  // How long one instance's load of a key may keep the others waiting (cross-instance coalescing with Redis).
  CACHE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  // Where `portal-cache inspect` reaches this instance (announced in Redis); unset: the listener's address, with
  // the host name for 0.0.0.0 (docs/operations.md "Cache CLI").
  INTERNAL_URL: optionalUrl(['http:', 'https:']),
  // A shared secret that opens /_internal to requests from other machines (the CLI sends it); unset: loopback only.
  INTERNAL_TOKEN: z.string().trim().min(16, 'at least 16 characters').max(256).optional(),
  // The instances' internal listeners, comma-separated origins; each host stands for every address it resolves to
  // (compose's service names, a Kubernetes headless Service). A purge made while Redis cannot be reached is sent
  // to them straight (cache/peer-purge.ts), beside the instances last seen announced in Redis.
  PEER_URLS: originList('http://portal-1:3000'),
  // The edge caches (Varnish, deploy/varnish/default.vcl) a purge is also sent to, comma-separated origins; unset: none.
  EDGE_PURGE_URLS: originList('http://varnish:6081'),
  // The secret the edge's VCL asks of a PURGE (its EDGE_PURGE_TOKEN); needed with EDGE_PURGE_URLS.
  // Empty is unset (docker-compose.yml passes `${EDGE_PURGE_TOKEN:-}` through).
  EDGE_PURGE_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || (value.length >= 16 && value.length <= 256), { message: 'at least 16 characters (at most 256)' }),
  // How long an edge may take to acknowledge a purge before it is reported missing.
  EDGE_PURGE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  // The publish hook's shared secret with the CMS (docs/publish-hook.md): POST /_internal/purge is off without it.
  PURGE_SECRET: z.string().trim().min(32, 'at least 32 characters').max(256).optional(),
  // The editors' preview (docs/preview.md): the secret the CMS signs preview links with. GET /_preview is a 404 without it.
  PREVIEW_SECRET: z.string().trim().min(32, 'at least 32 characters').max(256).optional(),
  // How often each instance asks the CMS for its flags (grey mode) past every cache, purging the pages built on
  // them when one changed: a flag switched without the publish hook shows within this and a re-render. 0: off.
  FLAG_WATCH_S: z.coerce.number().int().min(0).max(300).default(10),
  // How long a client may take to send a request's headers, and then its body: past it, a 408 and the connection
  // closed (a slow client holds no connection). A CMS's or a reader's body is a few KiB sent in one go.
  REQUEST_READ_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
  RENDER_TIMEOUT_MS: positiveMs.default(10_000),
  SHUTDOWN_TIMEOUT_MS: positiveMs.default(15_000),
  /** After SIGTERM, keep serving this long with /readyz at 503, so the load balancer stops sending first. */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_ORIGIN_PROTOCOL: z.enum(['http', 'https']).default('https'),
  DATA_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(600),
  /** Express `trust proxy`: '' trusts none; e.g. 'loopback, 10.0.0.0/8' for the load balancers in front. */
  // Behind a CDN: its published ranges, or a number, the hops in front to trust (1: only the nearest), never a
  // blanket uniquelocal when the CDN's addresses are public (docs/operations.md "TRUST_PROXY behind a CDN").
  TRUST_PROXY: z
    .string()
    .trim()
    .default('')
    .refine((value) => value === '' || /^\d{1,2}$/.test(value) || compilesAsTrust(value), {
      message: 'a comma-separated list of addresses, CIDRs or loopback/linklocal/uniquelocal, or a number of hops (1–99)',
    })
    .transform((value): string | number => (/^\d{1,2}$/.test(value) ? Number(value) : value)),
  /** Comma-separated origins readers load images and video from, besides the portal (CSP img/media/connect). */
  MEDIA_ORIGINS: originList('https://img.example.cn'),
  // Where CMS pictures are resized to their slots (docs/images.md): `embedded`, the portal's own resizer under
  // /img/ (sharp); `cdn`, a CDN's resizer named by IMAGE_CDN_TEMPLATE; `off`, pictures as the CMS serves them.
  IMAGE_RESIZER: z.enum(['embedded', 'cdn', 'off']).default('embedded'),
  // The CDN's resize URL: {src} the picture's address, {width} in pixels, {format} IMAGE_CDN_FORMAT's, e.g.
  // `{src}?x-oss-process=image/resize,w_{width}/format,{format}` (Alibaba OSS). Only with IMAGE_RESIZER=cdn.
  IMAGE_CDN_TEMPLATE: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine((value) => value === undefined || isCdnTemplate(value), {
      message: "must contain {src} and {width} and make an http(s) URL of a picture's, e.g. {src}?x-oss-process=image/resize,w_{width}/format,{format}",
    }),
  // The format the CDN is asked for ({format}): it cannot read each browser's Accept from a URL in the page.
  IMAGE_CDN_FORMAT: z.enum(['webp', 'avif', 'jpg', 'png']).default('webp'),
  // The embedded resizer: the largest original read (bytes, counted while reading), the most pixels decoded
  // (a decompression bomb is refused before it is decoded), how long one original may take to arrive.
  IMAGE_SOURCE_MAX_BYTES: z.coerce.number().int().min(65_536).max(268_435_456).default(20_971_520),
  IMAGE_SOURCE_MAX_PIXELS: z.coerce.number().int().min(1_000_000).max(268_402_689).default(40_000_000),
  IMAGE_SOURCE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  // 1: the embedded resizer may fetch MEDIA_ORIGINS that are (or resolve to) loopback or private addresses, for
  // media on the internal network. Unset, such an address is refused, whatever name led to it (the content
  // API's own origin, UPSTREAM_URL's, is read wherever it is, as the portal reads the API there).
  IMAGE_ALLOW_PRIVATE_SOURCES: z
    .enum(['0', '1', ''])
    .default('')
    .transform((value) => value === '1'),
  MOBILE_DETAIL_URL: z
    .string()
    .trim()
    .default('https://m.qnnews.cn/detail')
    .refine((value) => isUrlWithProtocol(value, ['http:', 'https:']), { message: 'must be an http(s) URL' }),
  // WeChat web sign-in (docs/product.md §7). The app id is public (it is in every QR URL); unset means sign-in is off.
  WECHAT_APP_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only (1–64)')
    .optional(),
  // Unset: WeChat's own page, or the reference API's simulated one when it runs in-process.
  WECHAT_QRCONNECT_URL: optionalUrl(['http:', 'https:']),
  // Where WeChat sends the reader back (the main site's origin). Unset: PUBLIC_ORIGIN_PROTOCOL://www.qnnews.cn,
  // or http://localhost:PORT when the reference API runs in-process (a local run).
  LOGIN_CALLBACK_ORIGIN: optionalUrl(['http:', 'https:']).refine((value) => value === undefined || new URL(value).origin === value.replace(/\/$/, ''), {
    message: 'must be an origin (scheme, host, optional port; no path)',
  }),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  // Visit statistics per host (docs/product.md §9): `www.qnnews.cn=<id>,bj.qnnews.cn=<id>`; a host without an id loads none.
  VISIT_STATS_IDS: z
    .string()
    .trim()
    .default('')
    .transform((value, context) => {
      const parsed = parseVisitStatsIds(value);
      if ('bad' in parsed) {
        context.addIssue({ code: 'custom', message: `"${parsed.bad}" is not host=id (id: letters and digits, 1–64)` });
        return z.NEVER;
      }
      const unknown = [...parsed.ids.keys()].find((host) => !SITE_HOSTS.has(host));
      if (unknown) {
        context.addIssue({ code: 'custom', message: `${unknown} is not one of the portal's site domains` });
        return z.NEVER;
      }
      return parsed.ids;
    }),
  // The statistics script; {id} is replaced by the host's id. Loaded with the page's nonce.
  VISIT_STATS_SCRIPT_URL: z
    .string()
    .trim()
    .default('https://hm.baidu.com/hm.js?{id}')
    .refine((value) => value.includes('{id}') && isUrlWithProtocol(value.replace('{id}', 'x'), ['http:', 'https:']), {
      message: 'must be an http(s) URL containing {id}',
    }),
  // The WeChat JS-SDK, loaded only by pages opened inside WeChat's browser to set the share card (docs/product.md §7).
  WECHAT_JSSDK_URL: z
    .string()
    .trim()
    .default('https://res.wx.qq.com/open/js/jweixin-1.6.0.js')
    .refine((value) => isUrlWithProtocol(value, ['http:', 'https:']), { message: 'must be an http(s) URL' }),
});

export type Config = z.infer<typeof schema>;

/** Rules between variables, reported like the per-variable ones. */
function crossProblems(config: Config): string[] {
  const problems: string[] = [];
  if (!config.REDIS_URL && config.L1_CACHE_MAX_MB === 0) {
    problems.push('L1_CACHE_MAX_MB="0": must be at least 1 without REDIS_URL (the in-process store is then the whole cache)');
  }
  if (config.REFERENCE_API && config.UPSTREAM_URL) {
    problems.push(`REFERENCE_API="${config.REFERENCE_API}": set with UPSTREAM_URL; a portal reads one content source (unset one of them)`);
  }
  if (config.SESSION_REDIS_URL && !config.REDIS_URL) {
    problems.push('SESSION_REDIS_URL: needs REDIS_URL too (without it every instance keeps sessions in process)');
  }
  if (config.INTERNAL_PORT !== undefined && config.INTERNAL_PORT === config.PORT) {
    // Said as a setting, not as the "port in use" the second listen() would meet (naming the wrong remedy).
    problems.push(`INTERNAL_PORT="${config.INTERNAL_PORT}": the same as PORT; /metrics and /_internal need a port of their own (or unset INTERNAL_PORT)`);
  }
  if (config.IMAGE_RESIZER === 'cdn' && !config.IMAGE_CDN_TEMPLATE) {
    problems.push('IMAGE_RESIZER="cdn": needs IMAGE_CDN_TEMPLATE (the CDN\'s resize URL, docs/images.md)');
  }
  if (config.IMAGE_RESIZER === 'cdn' && config.MEDIA_ORIGINS.length === 0) {
    problems.push('IMAGE_RESIZER="cdn": needs MEDIA_ORIGINS (the picture hosts the CDN resizes)');
  }
  if (config.IMAGE_CDN_TEMPLATE && config.IMAGE_RESIZER !== 'cdn') {
    problems.push(`IMAGE_CDN_TEMPLATE: set with IMAGE_RESIZER="${config.IMAGE_RESIZER}"; it is read only with IMAGE_RESIZER=cdn`);
  }
  if (config.EDGE_PURGE_URLS.length > 0 && !config.EDGE_PURGE_TOKEN) {
    problems.push('EDGE_PURGE_URLS: needs EDGE_PURGE_TOKEN too (the edge refuses every PURGE without the token)');
  }
  return problems;
}

/** Whether a CDN template makes an http(s) URL from a picture's address (the one place it may put {src}). */
function isCdnTemplate(template: string): boolean {
  if (!template.includes('{src}') || !template.includes('{width}')) return false;
  const filled = template.replaceAll('{src}', 'https://img.example.cn/a.jpg').replaceAll('{width}', '480').replaceAll('{format}', 'webp');
  return !/[{}]/.test(filled) && isUrlWithProtocol(filled, ['http:', 'https:']);
}

/** Whether Express's reading of `trust proxy` (proxy-addr) takes the list: every address and CIDR well-formed. */
function compilesAsTrust(value: string): boolean {
  try {
    proxyaddr.compile(value.split(',').map((item) => item.trim()));
    return true;
  } catch {
    return false;
  }
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((line) => `  - ${line}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (parsed.success) {
    const problems = crossProblems(parsed.data);
    if (problems.length > 0) throw new ConfigError(problems);
    return parsed.data;
  }
  const problems = parsed.error.issues.map((issue) => {
    const name = issue.path.join('.');
    // A Redis URL may carry a password: the line names the value without it. The token is not shown at all.
    const value =
      name === 'REDIS_URL' || name === 'SESSION_REDIS_URL'
        ? redactRedisUrl(env[name] ?? '')
        : name === 'INTERNAL_TOKEN' || name === 'EDGE_PURGE_TOKEN' || name === 'PURGE_SECRET' || name === 'PREVIEW_SECRET'
          ? '(hidden)'
          : (env[name] ?? '');
    return `${name}=${JSON.stringify(value)}: ${issue.message}`;
  });
  throw new ConfigError(problems);
}

/** Where pages come from: the newsroom's content API, or the generated reference dataset (development only). */
export type ContentSource = { kind: 'upstream'; url: string } | { kind: 'reference' };

/**
 * A portal never makes up news: without UPSTREAM_URL it refuses to start, unless the reference dataset was asked
 * for by name (REFERENCE_API=in-process, which `npm start` and `npm run dev` set when UPSTREAM_URL is unset).
 */
export function contentSourceOf(config: Config): ContentSource {
  if (config.UPSTREAM_URL) return { kind: 'upstream', url: config.UPSTREAM_URL };
  if (config.REFERENCE_API === REFERENCE_API_IN_PROCESS) return { kind: 'reference' };
  throw new ConfigError([
    `UPSTREAM_URL is not set: the portal serves only the newsroom's content API (UPSTREAM_URL=https://cms.example.cn); ` +
      `the generated reference dataset runs only with REFERENCE_API=${REFERENCE_API_IN_PROCESS} (npm start and npm run dev set it)`,
  ]);
}

/** Settings read from the environment outside the schema above (the runtime's own, the build's). */
const OTHER_KNOWN_VARIABLES = ['NODE_ENV', 'UPSTREAM_PORT', 'UPSTREAM_HOST', 'UPSTREAM_SEED', 'UPSTREAM_LATENCY_MS', 'UPSTREAM_PUBLIC_URL', 'REFERENCE_IMAGES'];

export interface MisspeltVariable {
  name: string;
  meant: string;
}

/**
 * Environment variables that look like a misspelt setting of the portal (`REDIS_ULR`, `UPSTREAM_URl`): named in a
 * start-up warning, because the setting they were meant for silently keeps its default otherwise. Close means the
 * same letters in another case, or an edit distance of 1 (2 for names of 8 characters or more: `ULR` for `URL` is
 * two edits), so short unrelated names of the environment (`HOME` and `HOST`) do not match.
 */
export function misspeltVariables(env: NodeJS.ProcessEnv = process.env): MisspeltVariable[] {
  const known = [...Object.keys(schema.shape), ...OTHER_KNOWN_VARIABLES];
  const knownSet = new Set(known);
  const found: MisspeltVariable[] = [];
  for (const name of Object.keys(env)) {
    if (knownSet.has(name)) continue;
    const meant = known.find((candidate) => looksLike(name, candidate));
    if (meant) found.push({ name, meant });
  }
  return found;
}

function looksLike(name: string, candidate: string): boolean {
  if (name.toUpperCase() === candidate.toUpperCase()) return true;
  if (Math.abs(name.length - candidate.length) > 2) return false;
  const allowed = Math.min(name.length, candidate.length) >= 8 ? 2 : 1;
  return levenshtein(name.toUpperCase(), candidate.toUpperCase()) <= allowed;
}
