/** Reading running portals' /metrics over HTTP (stats --portal, watch). */
import { parsePrometheus, type Sample } from '../../server/cache/stats';
import { CliError, EXIT, errorText } from './output';

export async function scrape(portals: string[]): Promise<Sample[]> {
  const all = await Promise.all(
    portals.map(async (portal) => {
      const url = new URL('/metrics', portal).href;
      const response = await fetch(url).catch((error: unknown) => {
        throw new CliError(`cannot reach ${url}: ${errorText(error)}`, EXIT.failed);
      });
      if (!response.ok) throw new CliError(`${url} answered HTTP ${response.status}`, EXIT.failed);
      return parsePrometheus(await response.text());
    }),
  );
  return all.flat();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
