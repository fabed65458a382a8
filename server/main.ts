/**
 * `npm start`: validate the configuration, start the reference content API in-process when no UPSTREAM_URL is
 * set (so a fresh clone works out of the box; loaded from its own bundle, see embedded-upstream.ts), build the
 * portal, listen, and drain cleanly on SIGTERM/SIGINT.
 */
import { ConfigError, loadConfig } from './config';
import { startEmbeddedUpstream } from './embedded-upstream';
import { listen } from './http-server';
import { createLogger } from './logger';
import { createPortal } from './portal';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  // Embedded: media URLs stay site-relative and the portal serves /media, so readers on other machines see images.
  const reference = config.UPSTREAM_URL ? null : await startEmbeddedUpstream();
  const upstreamUrl = config.UPSTREAM_URL ?? reference!.url;
  if (reference) logger.info({ upstream: upstreamUrl }, 'no UPSTREAM_URL: serving the in-process reference content API');

  const portal = createPortal({ config, logger, upstreamUrl, embeddedUpstream: reference !== null });
  const running = await listen(portal, config.PORT, config.HOST, logger, config.SHUTDOWN_TIMEOUT_MS, config.SHUTDOWN_DELAY_MS);
  logger.info({ url: running.url, cache: portal.store.kind, build: portal.assets.buildId }, `portal listening on ${running.url}`);

  const stop = (signal: string) => {
    logger.info({ signal }, 'draining');
    running
      .shutdown()
      .then(() => reference?.close())
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`portal failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
