/** Site names an operator types (a domain or an id), checked against the portal's site table. */
import { ALL_SITES, siteOfKnownHost, type SiteConfig } from '../../shared/sites';
import { CliError, EXIT } from './output';

/** The site of a URL's host; a host that is none of the portal's sites is refused, never read as the main site. */
export function siteOfHost(host: string, option: string): SiteConfig {
  const site = siteOfKnownHost(host);
  if (!site)
    throw new CliError(
      `${option}: "${host}" is not one of the portal's sites (${ALL_SITES.map((s) => s.domain)
        .slice(0, 3)
        .join(', ')}, … see purge --help)`,
      EXIT.usage,
    );
  return site;
}

/** `--site bj.qnnews.cn`, `--site https://bj.qnnews.cn/` or `--site 1`. */
export function siteOfOption(value: string): SiteConfig {
  if (/^\d{1,3}$/.test(value)) {
    const site = ALL_SITES[Number(value)];
    if (!site) throw new CliError(`--site ${value} is not a site id (0–${ALL_SITES.length - 1}; see purge --help)`, EXIT.usage);
    return site;
  }
  const host = /^https?:\/\//i.test(value) ? safeHost(value) : value;
  return siteOfHost(host ?? value, '--site');
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** The id → domain table for help texts. */
export function siteTable(): string {
  return ALL_SITES.map((site) => `  ${String(site.id).padStart(2)}  ${site.domain.padEnd(18)} ${site.name}`).join('\n');
}
