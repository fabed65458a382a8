/**
 * What REDIS_URL names: one Redis, a Sentinel-watched master, or a Redis Cluster. One variable keeps the three
 * forms in one place, so an operator switching topology changes one line and nothing else:
 *
 *   redis://[user:password@]host[:6379][/db]      rediss://… (TLS)            one server
 *   redis-sentinel://[user:password@]host[:26379][,host[:26379]…]/master[/db]  the master Sentinel names
 *   redis-cluster://[user:password@]host[:6379][,host[:6379]…]                 seed nodes of a cluster
 *
 * The credentials are the data nodes' (ACL user or requirepass); Sentinels are reached without them.
 */

export interface HostPort {
  host: string;
  port: number;
}

export interface Credentials {
  username?: string;
  password?: string;
}

export type RedisTarget =
  | { mode: 'standalone'; url: string }
  | ({ mode: 'sentinel'; sentinels: HostPort[]; masterName: string; db: number } & Credentials)
  | ({ mode: 'cluster'; nodes: HostPort[] } & Credentials);

export type RedisMode = RedisTarget['mode'];

export class RedisUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisUrlError';
  }
}

export const REDIS_URL_FORMS = 'redis://host:6379/0, rediss://…, redis-sentinel://host:26379,host2:26379/mymaster or redis-cluster://host:7000,host2:7001';

const SENTINEL_PORT = 26379;
const REDIS_PORT = 6379;
const MAX_DB = 15;
/** `scheme://[userinfo@]hosts[/path][?query]`; hosts may be a comma-separated list, which WHATWG URL refuses. */
const MULTI_HOST_URL = /^([a-z-]+):\/\/(?:([^@/]*)@)?([^/?#]*)(\/[^?#]*)?([?#].*)?$/i;
const HOST_PORT = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;

export function parseRedisTarget(url: string): RedisTarget {
  const scheme = /^([a-z-]+):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'redis' || scheme === 'rediss') return parseStandalone(url);
  if (scheme === 'redis-sentinel' || scheme === 'redis-cluster') return parseMultiHost(url, scheme);
  throw new RedisUrlError(`must be one of ${REDIS_URL_FORMS}`);
}

function parseStandalone(url: string): RedisTarget {
  if (MULTI_HOST_URL.exec(url)?.[3]?.includes(',')) {
    throw new RedisUrlError('lists several hosts: use redis-sentinel:// or redis-cluster:// for those');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RedisUrlError(`is not a URL (expected ${REDIS_URL_FORMS})`);
  }
  if (!parsed.hostname) throw new RedisUrlError('names no host');
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '') parseDb(db);
  return { mode: 'standalone', url };
}

function parseMultiHost(url: string, scheme: 'redis-sentinel' | 'redis-cluster'): RedisTarget {
  const match = MULTI_HOST_URL.exec(url);
  if (!match) throw new RedisUrlError(`is not a URL (expected ${REDIS_URL_FORMS})`);
  const [, , userinfo, hostList = '', path = '', query] = match;
  if (query) throw new RedisUrlError('takes no query string or fragment');
  const defaultPort = scheme === 'redis-sentinel' ? SENTINEL_PORT : REDIS_PORT;
  const hosts = parseHosts(hostList, defaultPort);
  const credentials = parseCredentials(userinfo);
  const segments = path.split('/').filter((segment) => segment !== '');
  if (scheme === 'redis-cluster') {
    // A cluster has only database 0; a path would be silently ignored, so it is refused.
    if (segments.length > 0) throw new RedisUrlError('redis-cluster:// takes no path (a cluster has only database 0)');
    return { mode: 'cluster', nodes: hosts, ...credentials };
  }
  const [masterName, db, extra] = segments;
  if (!masterName) throw new RedisUrlError('redis-sentinel:// needs the master name as its path (redis-sentinel://host:26379/mymaster)');
  if (extra !== undefined) throw new RedisUrlError('redis-sentinel:// path is /master or /master/db');
  if (!/^[\w.-]{1,64}$/.test(masterName)) throw new RedisUrlError(`master name "${masterName}" may hold letters, digits, _ . - only`);
  return { mode: 'sentinel', sentinels: hosts, masterName, db: db === undefined ? 0 : parseDb(db), ...credentials };
}

function parseHosts(list: string, defaultPort: number): HostPort[] {
  if (list === '') throw new RedisUrlError('names no host');
  return list.split(',').map((item) => {
    const match = HOST_PORT.exec(item.trim());
    if (!match) throw new RedisUrlError(`"${item}" is not host or host:port`);
    const port = match[2] === undefined ? defaultPort : Number(match[2]);
    if (port < 1 || port > 65535) throw new RedisUrlError(`port ${port} of "${item}" is not 1–65535`);
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
  });
}

function parseCredentials(userinfo: string | undefined): Credentials {
  if (!userinfo) return {};
  const colon = userinfo.indexOf(':');
  // As ioredis reads redis:// URLs: `user@` is a user name, `:password@` a password alone.
  const username = decode(colon < 0 ? userinfo : userinfo.slice(0, colon));
  const password = colon < 0 ? '' : decode(userinfo.slice(colon + 1));
  return { ...(username ? { username } : {}), ...(password ? { password } : {}) };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new RedisUrlError('has a badly percent-encoded user or password');
  }
}

function parseDb(text: string): number {
  if (!/^\d{1,2}$/.test(text) || Number(text) > MAX_DB) throw new RedisUrlError(`database "${text}" is not 0–${MAX_DB}`);
  return Number(text);
}

/** The URL without its password, for logs and error lines. */
export function redactRedisUrl(url: string): string {
  return url.replace(/^([a-z-]+:\/\/)([^@/]*)@/i, (_whole, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon < 0 ? `${scheme}***@` : `${scheme}${userinfo.slice(0, colon)}:***@`;
  });
}
