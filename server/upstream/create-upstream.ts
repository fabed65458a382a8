/**
 * The upstream subsystem of one portal, made by `createUpstream()`: the HTTP client to the content API, the content
 * service over it and the data cache, and the watch on the grey-mode flag, which the CMS switches without the
 * publish hook.
 */
import type { GreyMode } from '../../shared/types/entities';
import type { PortalCaches } from '../cache/create-cache';
import type { Config } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { Metrics } from '../platform/metrics';
import { GREY_MODE_CALL } from './content-calls/decoration';
import { ContentService } from './content-service';
import { UpstreamFailureLog } from './failure-log';
import { FlagWatch } from './flag-watch';
import { UpstreamClient } from './http-client';

export interface UpstreamDeps {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  /** The content API to use; config.UPSTREAM_URL unless the caller started one in-process. */
  baseUrl: string;
  caches: Pick<PortalCaches, 'cache' | 'keys' | 'policy' | 'purges' | 'instance'>;
  /** How often a line says a content call goes on failing (failure-log.ts; a minute); tests shorten it. */
  failureLogEveryMs?: number;
}

export interface PortalUpstream {
  client: UpstreamClient;
  content: ContentService;
  close(): Promise<void>;
}

export function createUpstream(deps: UpstreamDeps): PortalUpstream {
  const { config, logger, metrics } = deps;
  const client = new UpstreamClient({
    baseUrl: deps.baseUrl,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    maxBodyBytes: config.UPSTREAM_MAX_BODY_BYTES,
    onCall: (call, outcome, durationMs) => metrics.upstreamCall(call, outcome, durationMs),
    onAnswer: (call, bytes) => metrics.upstreamAnswer(call, bytes),
    onRedirect: (call, status, locationHost) => logger.warn({ call, status, locationHost }, 'upstream answered a redirect; not followed'),
  });
  const failures = new UpstreamFailureLog(logger, deps.failureLogEveryMs ? { everyMs: deps.failureLogEveryMs } : {});
  const { cache, keys, policy } = deps.caches;
  const content = new ContentService({
    upstream: client,
    cache,
    keys,
    policy,
    // One line when a call family starts failing, one a minute while it does, one when it answers again.
    onUpstreamError: (call, error) => failures.failed(call, error),
    onUpstreamAnswer: (call) => failures.answered(call),
  });
  const greyWatch = watchGreyMode(deps, content);
  greyWatch.start();
  return {
    client,
    content,
    // The watch first: a check under way still reads through the client and may purge.
    close: async () => {
      await greyWatch.stop();
      client.close();
    },
  };
}

/** Grey mode is reloaded on a period; a change purges every page built on it, on every instance and edge. */
function watchGreyMode(deps: UpstreamDeps, content: ContentService): FlagWatch<GreyMode> {
  const { purges, instance } = deps.caches;
  return new FlagWatch({
    name: 'grey',
    reload: () => content.reload(GREY_MODE_CALL),
    purge: async ({ was, now }) => {
      await purges.run([{ by: 'tag', tag: 'grey' }], {
        tags: ['grey'],
        urls: [],
        soft: true,
        who: `portal ${instance.id}`,
        source: 'watch',
        what: `grey mode ${was} → ${now} (flag watch)`,
      });
    },
    everyMs: deps.config.FLAG_WATCH_S * 1000,
    logger: deps.logger,
  });
}
