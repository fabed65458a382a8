/**
 * The sign-in subsystem of one portal, made by `createAuth()`: its settings, the sessions and pending sign-ins over
 * Redis (the cache's, or SESSION_REDIS_URL's own) or in process, and the account calls the server makes itself.
 */
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { RedisClient } from '../redis/client';
import { RedisHealth, type RedisState } from '../redis/health';
import type { OutageLogs } from '../redis/outage-log';
import { createPortalRedisClient } from '../redis/portal-client';
import { redactRedisUrl } from '../platform/redis-target';
import type { UpstreamClient } from '../upstream/http-client';
import { AccountClient } from './account-client';
import { MemorySecretStore, RedisSecretStore, type SecretStore } from './secret-store';
import { Sessions } from './sessions';
import { authSettings, type AuthSettings } from './settings';

export interface AuthDeps {
  config: Config;
  logger: Logger;
  outages: OutageLogs;
  /** The cache's Redis client; null without REDIS_URL. */
  cacheClient: RedisClient | null;
  upstream: UpstreamClient;
  /** Embedded mode: the in-process reference API, which stands in for WeChat's sign-in page. */
  embeddedUpstreamUrl: string | undefined;
}

export interface PortalAuth {
  settings: AuthSettings;
  sessions: Sessions;
  accounts: AccountClient;
  /** Null unless SESSION_REDIS_URL names a Redis of its own for sessions and sign-ins. */
  sessionsState: (() => RedisState) | null;
  close(): void;
}

export function createAuth(deps: AuthDeps): PortalAuth {
  const { config } = deps;
  const client = sessionClientOf(deps);
  const health = config.SESSION_REDIS_URL && client ? new RedisHealth(client) : null;
  const secretStore = (namespace: string): SecretStore =>
    client ? new RedisSecretStore(client, `${config.CACHE_PREFIX}:${namespace}`) : new MemorySecretStore();
  const settings = authSettings(config, deps.embeddedUpstreamUrl);
  return {
    settings,
    sessions: new Sessions(secretStore('session'), secretStore('login'), settings.sessionTtlSeconds),
    accounts: new AccountClient(deps.upstream),
    sessionsState: health ? () => health.state() : null,
    close: () => {
      health?.stop();
      if (client && client !== deps.cacheClient) client.disconnect();
    },
  };
}

/** Sessions must not be evicted with cache entries: SESSION_REDIS_URL names a Redis without eviction for them. */
function sessionClientOf(deps: AuthDeps): RedisClient | null {
  const { config } = deps;
  if (!config.SESSION_REDIS_URL) return deps.cacheClient;
  const outageLog = deps.outages.open(redactRedisUrl(config.SESSION_REDIS_URL), 'sign-in fails until it returns', 'session');
  return createPortalRedisClient(config.SESSION_REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS, deps.logger, outageLog);
}
