/**
 * The server process: validate the configuration, find the content source (the newsroom's content API, or the
 * reference content API in-process when asked for by name: `npm start` and `npm run dev` do when no UPSTREAM_URL
 * is set, so a fresh clone works out of the box; loaded from its own bundle, see embedded-upstream.ts), build the
 * portal, listen, and drain cleanly on SIGTERM/SIGINT.
 */
import { ConfigError, contentSourceOf, loadConfig, misspeltVariables, type Config, type ContentSource } from './platform/config';
import { startEmbeddedUpstream } from './embedded-upstream';
import { listen } from './http-server';
import { listenInternal } from './internal-listener';
import { createLogger, logStartupFailure, type Logger } from './platform/logger';
import { packageInfo, satisfies } from './platform/package-info';
import { createPortal } from './portal';

/**
 * Exit codes of a start that fails, each with one JSON line on stderr (logger.ts): 78 (EX_CONFIG) a setting is
 * invalid or missing; 69 (EX_UNAVAILABLE) the port cannot be listened on (in use, needs privileges, an address this
 * machine does not have); 1 anything else (a missing build, a bug), with its stack in the line.
 */
const EXIT = { config: 78, unavailable: 69, failed: 1 } as const;

/** Why listen() failed, for people: the errno says it, the stack does not. */
function listenProblem(error: unknown, host: string, port: number, setting: 'PORT' | 'INTERNAL_PORT'): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE') return `cannot listen on ${where}: the port is already in use (another process listens there; stop it or set ${setting})`;
  if (code === 'EACCES') return `cannot listen on ${where}: permission denied (ports below 1024 need privileges; set ${setting} to 1024 or above)`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: ${host} is not an address of this machine (set HOST, e.g. 0.0.0.0)`;
  return null;
}

function configOrExit(): { config: Config; source: ContentSource } {
  try {
    const config = loadConfig();
    return { config, source: contentSourceOf(config) };
  } catch (error) {
    if (error instanceof ConfigError) {
      // A misspelt setting is often why a required one is missing: say so in the same report.
      const hints = misspeltVariables().map(({ name, meant }) => `${name} is set: did you mean ${meant}?`);
      logStartupFailure(`invalid configuration: ${[...error.problems, ...hints].join('; ')}`, EXIT.config, { problems: error.problems, hints });
      process.exit(EXIT.config);
    }
    throw error;
  }
}

/** A Node outside package.json's engines starts (an image or host not yet upgraded), but says so once. */
function warnOutsideEngines(logger: Logger): void {
  const { nodeRange } = packageInfo();
  if (nodeRange === null || satisfies(process.version, nodeRange) !== false) return;
  logger.warn(
    { node: process.version, engines: nodeRange },
    `node ${process.version} is outside the versions the portal is built and tested for (engines: node ${nodeRange}); starting anyway`,
  );
}

async function main(): Promise<void> {
  const { config, source } = configOrExit();
  const logger = createLogger(config.LOG_LEVEL);
  warnOutsideEngines(logger);
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
  const running = await listen(portal, config.PORT, config.HOST, logger, config.SHUTDOWN_TIMEOUT_MS, config.SHUTDOWN_DELAY_MS).catch((error: unknown) => {
    const problem = listenProblem(error, config.HOST, config.PORT, 'PORT');
    if (problem === null) throw error;
    logStartupFailure(problem, EXIT.unavailable, { host: config.HOST, port: config.PORT, code: (error as NodeJS.ErrnoException).code });
    process.exit(EXIT.unavailable);
  });
  const internal =
    config.INTERNAL_PORT === undefined
      ? null
      : await listenInternal(portal, config.INTERNAL_PORT, config.HOST).catch((error: unknown) => {
          const problem = listenProblem(error, config.HOST, config.INTERNAL_PORT!, 'INTERNAL_PORT');
          if (problem === null) throw error;
          logStartupFailure(`INTERNAL_PORT: ${problem}`, EXIT.unavailable, {
            host: config.HOST,
            port: config.INTERNAL_PORT,
            code: (error as NodeJS.ErrnoException).code,
          });
          process.exit(EXIT.unavailable);
        });
  logger.info(
    { url: running.url, internalUrl: internal?.url, cache: portal.store.kind, build: portal.assets.buildId },
    `portal listening on ${running.url}${internal ? ` (metrics and /_internal on ${internal.url})` : ''}`,
  );

  const stop = (signal: string) => {
    logger.info({ signal }, 'draining');
    running
      .shutdown()
      .then(() => internal?.close())
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
  const message = error instanceof Error ? error.message : String(error);
  logStartupFailure(`portal failed to start: ${message}`, EXIT.failed, { stack: error instanceof Error ? error.stack : undefined });
  process.exit(EXIT.failed);
});
