/**
 * The server process: validate the configuration, find the content source (the newsroom's content API, or the
 * reference content API in-process when asked for by name: `npm start` and `npm run dev` do when no UPSTREAM_URL
 * is set, so a fresh clone works out of the box; loaded from its own bundle, see embedded-upstream.ts), build the
 * portal, listen, and drain cleanly on SIGTERM/SIGINT.
 */
import { ConfigError, contentSourceOf, loadConfig, misspeltVariables, type Config, type ContentSource } from './config';
import { startEmbeddedUpstream } from './embedded-upstream';
import { listen } from './http-server';
import { createLogger } from './logger';
import { createPortal } from './portal';

function configOrExit(): { config: Config; source: ContentSource } {
  try {
    const config = loadConfig();
    return { config, source: contentSourceOf(config) };
  } catch (error) {
    if (error instanceof ConfigError) {
      // A misspelt setting is often why a required one is missing: say so in the same report.
      const hints = misspeltVariables().map(({ name, meant }) => `  (${name} is set: did you mean ${meant}?)\n`);
      process.stderr.write(`${error.message}\n${hints.join('')}`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const { config, source } = configOrExit();
  const logger = createLogger(config.LOG_LEVEL);
  for (const { name, meant } of misspeltVariables()) {
    logger.warn({ variable: name, meant }, `environment variable ${name} is not a setting of the portal: did you mean ${meant}? (${meant} keeps its default)`);
  }
  // Embedded: media URLs stay site-relative and the portal serves /media, so readers on other machines see images.
  const reference = source.kind === 'reference' ? await startEmbeddedUpstream() : null;
  const upstreamUrl = source.kind === 'upstream' ? source.url : reference!.url;
  if (reference) {
    logger.warn(
      { upstream: upstreamUrl, content: 'reference-dataset' },
      "REFERENCE_API=in-process: serving the generated reference dataset, not the newsroom's content",
    );
  }

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
