/**
 * A portal process for a test that crashes it (SIGKILL) and waits for what it left in Redis to expire: the
 * server's own parts as server/main.ts puts them together, with the announcement interval the test names in
 * TEST_ANNOUNCE_EVERY_MS, so its key expires in seconds rather than the shipped 30 s. Bundled by portal-process.ts.
 */
import { loadConfig } from '../../server/platform/config';
import { listen } from '../../server/http-server';
import { createLogger } from '../../server/platform/logger';
import { createPortal } from '../../server/portal';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const announceEveryMs = Number(process.env.TEST_ANNOUNCE_EVERY_MS);
  if (!config.UPSTREAM_URL) throw new Error('UPSTREAM_URL is not set');
  if (!(announceEveryMs > 0)) throw new Error('TEST_ANNOUNCE_EVERY_MS is not a positive number');
  const portal = createPortal({ config, logger, upstreamUrl: config.UPSTREAM_URL, announceEveryMs });
  const running = await listen(portal, config.PORT, config.HOST, logger, config.SHUTDOWN_TIMEOUT_MS);
  logger.info({ url: running.url }, `portal listening on ${running.url}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
