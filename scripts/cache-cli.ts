/**
 * The operator CLI, `portal-cache` (`npm run cache -- <command>`, prebuilt to dist/cli/portal-cache.cjs). Talks
 * to the cache's Redis directly (stats, inspect, purge, policy) and to running portals over HTTP (hit ratios
 * from /metrics, warm, watch). --redis / REDIS_URL takes the portal's forms: one server, a Sentinel set or a
 * cluster (server/platform/redis-target.ts); on a cluster, scans and purges cover every master.
 *
 * This file only wires commander: each command's module (and with it ioredis, zod, the route table) is loaded
 * when that command runs, so `--help` and `--version` start in a few tens of milliseconds.
 */
import { Command, CommanderError, Option } from 'commander';
import { version } from '../package.json';
import { CliError, EXIT, EXIT_MEANINGS, JSON_VERSION, jsonDocument, portalUrl, positiveInt, type Globals } from './cache-cli/output';
import { siteTable } from './cache-cli/sites';
import { DATA_POLICY, PAGE_POLICY } from '../server/cache/policy';

const DATA_FAMILIES = Object.keys(DATA_POLICY);
const PAGE_KINDS = Object.keys(PAGE_POLICY);

/** The exit codes a command can end with, for the help of the program and of each command. */
function exitCodes(codes: ReadonlyArray<keyof typeof EXIT>): string {
  return `\nExit codes:\n${codes.map((code) => `  ${EXIT[code]}  ${EXIT_MEANINGS[code]}`).join('\n')}`;
}

function examples(lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}

/** Each command's examples and exit codes, printed after its own --help. */
const COMMAND_HELP: Record<string, { examples: string[]; exits: ReadonlyArray<keyof typeof EXIT> }> = {
  stats: {
    examples: ['portal-cache stats', 'portal-cache stats --portal http://10.0.0.7:3000 --window 60', 'portal-cache --json --timeout 2 stats'],
    exits: ['ok', 'usage', 'redis', 'partial'],
  },
  instances: {
    examples: ['portal-cache instances', 'portal-cache instances --portal http://10.0.0.7:3000', 'portal-cache --json instances'],
    exits: ['ok', 'usage', 'redis', 'notFound', 'partial'],
  },
  inspect: {
    examples: ['portal-cache inspect https://www.qnnews.cn/detail/2728/33727', 'portal-cache inspect /about --portal http://10.0.0.7:3000'],
    exits: ['ok', 'usage', 'redis', 'notFound', 'partial'],
  },
  purge: {
    examples: [
      'portal-cache purge --tag article:33727',
      'portal-cache purge --url https://bj.qnnews.cn/ --every-query --dry-run',
      'portal-cache purge --site bj.qnnews.cn',
    ],
    exits: ['ok', 'usage', 'redis', 'notFound', 'partial'],
  },
  purges: {
    examples: ['portal-cache purges', 'portal-cache purges --limit 100', 'portal-cache --json purges --limit 5'],
    exits: ['ok', 'usage', 'redis'],
  },
  warm: {
    examples: [
      'portal-cache warm sitemap.xml --portal http://127.0.0.1:3000',
      'curl -s https://www.qnnews.cn/sitemap.xml | portal-cache warm - --portal http://127.0.0.1:3000',
    ],
    exits: ['ok', 'failed', 'usage'],
  },
  watch: {
    examples: ['portal-cache watch', 'portal-cache watch --portal http://10.0.0.7:3000 --interval 5 --count 12'],
    exits: ['ok', 'failed', 'usage', 'redis', 'partial'],
  },
  policy: {
    examples: [
      'portal-cache policy get',
      'portal-cache policy set --page detail --ttl 10m --grace 1h',
      'portal-cache policy unset --page detail',
      'portal-cache policy set --outage-window 10m --outage-ttl 30s',
    ],
    exits: ['ok', 'usage', 'redis', 'notFound'],
  },
};

const EXAMPLES = examples([
  'portal-cache instances',
  'portal-cache stats --portal http://127.0.0.1:3000',
  'portal-cache inspect https://www.qnnews.cn/detail/2728/33727',
  'portal-cache inspect /about --portal http://10.0.0.7:3000',
  'portal-cache purge --tag article:33727',
  'portal-cache purge --url https://bj.qnnews.cn/ --every-query --dry-run',
  'portal-cache purge --site bj.qnnews.cn',
  'portal-cache purges --limit 20',
  'portal-cache warm sitemap.xml --portal http://127.0.0.1:3000',
  'portal-cache policy set --page detail --ttl 10m --grace 1h',
  'portal-cache policy unset --page detail',
  `portal-cache --json inspect /about          (one JSON document, "version": ${JSON_VERSION})`,
]);

const COMMANDS = ['stats', 'instances', 'inspect', 'purge', 'purges', 'warm', 'policy', 'watch'];

function withHelp(command: Command, name: string): Command {
  const help = COMMAND_HELP[name]!;
  return command.addHelpText('after', `${exitCodes(help.exits)}\n${examples(help.examples)}`);
}

function program(): Command {
  const cli = new Command('portal-cache')
    .description('Operate the portal cache: stats, instances, inspect, purge, purges, warm, policy, watch')
    .version(version, '-V, --version')
    .addOption(new Option('--redis <url>', 'Redis of the cache').env('REDIS_URL').default('redis://127.0.0.1:6379'))
    .addOption(new Option('--prefix <prefix>', 'cache prefix (CACHE_PREFIX of the portals)').env('CACHE_PREFIX').default('portal'))
    .option('--json', `print one JSON document (for scripts; "version": ${JSON_VERSION}, stable fields), errors included`, false)
    .option('--timeout <seconds>', 'longest wait for any one answer of a running portal', positiveInt('--timeout', 600), 5)
    .addHelpText('after', `${exitCodes(['ok', 'failed', 'usage', 'redis', 'notFound', 'partial'])}\n${EXAMPLES}`)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  const globals = (): Globals => cli.opts<Globals>();
  const portals = (value: string, previous: string[]) => [...previous, portalUrl(value)];

  withHelp(cli.command('stats'), 'stats')
    .description('entries, bytes and largest keys in Redis; hit ratios by kind and site from running portals')
    .option('--portal <url>', 'also read /metrics of this portal, besides the instances announced in Redis (repeatable)', portals, [])
    .option('--window <seconds>', 'hit ratios over this window instead of since start', positiveInt('--window', 3600))
    .option('--top <n>', 'how many of the largest keys to list', positiveInt('--top', 1000), 10)
    .action(async (options) => (await import('./cache-cli/stats-command')).statsCommand(globals(), options));
  withHelp(cli.command('instances'), 'instances')
    .description('each running instance: health, readiness (ready, degraded, draining) and its checks, build, L1 size')
    .option('--portal <url>', 'also ask this portal, besides the instances announced in Redis (repeatable)', portals, [])
    .action(async (options) => (await import('./cache-cli/instances-command')).instancesCommand(globals(), options));
  withHelp(cli.command('inspect'), 'inspect')
    .description('why a page is served as it is: serve decision, windows, lock, tags, and the data entries it was built from')
    .argument('<url-or-key>', 'a page URL (https://host/path or /path, any spelling) or an exact cache key')
    .option('--portal <url>', 'also ask this portal for its in-memory (L1) copy, besides the instances announced in Redis (repeatable)', portals, [])
    .action(async (target: string, options) => (await import('./cache-cli/inspect-command')).inspectCommand(globals(), target, options));
  withHelp(cli.command('purge'), 'purge')
    .description(
      'drop entries everywhere (Redis, every instance’s memory, the edges of EDGE_PURGE_URLS) by key, URL, tag, site or all; recorded in the purge history',
    )
    .option('--key <key>', 'one exact cache key')
    .option('--url <url>', 'a page URL, any spelling of its path; the host picks the site')
    .option('--every-query', 'with --url: every query variant of that page', false)
    .option('--tag <tag>', 'every entry holding the tag (article:123, cat:2728, site:3, page:detail, data:list; the families of docs/publish-hook.md)')
    .option('--site <domain|id>', 'every page of a site and the data tagged with it (bj.qnnews.cn or its id, below)')
    .option('--all', 'every page and data entry')
    .option('--build <id>', 'only this build (default: every build of the prefix)', '*')
    .option('--dry-run', 'count what would be purged, change nothing', false)
    .option('--soft', 'mark pages stale (readers keep them while one re-render runs) instead of deleting them', false)
    .addHelpText('after', `\nSites (--site takes the domain or the id):\n${siteTable()}`)
    .action(async (options) => (await import('./cache-cli/purge-command')).purgeCommand(globals(), options));
  withHelp(cli.command('purges'), 'purges')
    .description('the purge history, newest first: when, who (the CMS hook or an operator), what, entries, instances, edges')
    .option('--limit <n>', 'how many purges', positiveInt('--limit', 1000), 20)
    .action(async (options) => (await import('./cache-cli/purge-command')).purgesCommand(globals(), options));
  withHelp(cli.command('warm'), 'warm')
    .description('request every URL of a sitemap, sitemap index or URL list through a portal, so readers find them cached')
    .argument('<file>', 'sitemap.xml, a sitemap index, or a text file of URLs/paths, one per line ("-" for stdin)')
    .requiredOption('--portal <url>', 'the portal to request them from', portalUrl)
    .option('--concurrency <n>', 'requests in flight at once', positiveInt('--concurrency', 256), 8)
    .action(async (source: string, options) => (await import('./cache-cli/warm-command')).warmCommand(globals(), source, options));
  const policy = withHelp(cli.command('policy'), 'policy').description('TTL, grace and stale-if-error per call family and page kind');
  withHelp(policy.command('get'), 'policy')
    .description('the policy in force (defaults plus overrides, each override marked *)')
    .action(async () => (await import('./cache-cli/policy-command')).policyGet(globals()));
  withHelp(policy.command('set'), 'policy')
    .description('override one call family or page kind; every instance applies it without restart')
    .addOption(new Option('--data <family>', 'a call family').choices(DATA_FAMILIES))
    .addOption(new Option('--page <kind>', 'a page kind').choices(PAGE_KINDS))
    .option('--ttl <duration>', 'fresh for (1s–7d; 90, 90s, 10m, 1h, 2d)')
    .option('--grace <duration>', 'then served stale while refreshing (0–7d)')
    .option('--stale-if-error <duration>', 'then kept for upstream outages (0–30d)')
    .option('--outage-window <duration>', 'Redis unreachable: how long L1 answers as usual (0–1d; alone, without --data/--page)')
    .option('--outage-ttl <duration>', 'past that window: how long an L1 entry counts fresh, and as long in grace (1s–1h)')
    .action(async (options) => (await import('./cache-cli/policy-command')).policySet(globals(), options));
  withHelp(policy.command('unset'), 'policy')
    .description('remove the override of one call family or page kind (or only some of its fields)')
    .addOption(new Option('--data <family>', 'a call family').choices(DATA_FAMILIES))
    .addOption(new Option('--page <kind>', 'a page kind').choices(PAGE_KINDS))
    .option('--outage', 'the outage policy (window, ttl) instead of a family or kind', false)
    .option(
      '--field <name>',
      'only this field: ttl, grace or stale-if-error; with --outage: window or ttl (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .action(async (options) => (await import('./cache-cli/policy-command')).policyUnset(globals(), options));
  withHelp(policy.command('reset'), 'policy')
    .description('drop every override: back to the defaults in code')
    .action(async () => (await import('./cache-cli/policy-command')).policyReset(globals()));
  withHelp(cli.command('watch'), 'watch')
    .description('live hit ratio of running portals, one line per interval')
    .option('--portal <url>', 'also watch this portal, besides the instances announced in Redis (repeatable)', portals, [])
    .option('--interval <seconds>', 'seconds between lines', positiveInt('--interval', 3600), 2)
    .option('--count <n>', 'stop after this many lines', positiveInt('--count', 1_000_000))
    .action(async (options) => (await import('./cache-cli/watch-command')).watchCommand(globals(), options));
  return cli;
}

async function main(argv: string[]): Promise<number> {
  let json = argv.includes('--json');
  try {
    const cli = program();
    cli.hook('preAction', () => {
      const { prefix } = cli.opts<Globals>();
      json = cli.opts<Globals>().json;
      if (!/^[a-z0-9_-]{1,32}$/i.test(prefix)) throw new CliError(`--prefix "${prefix}": letters, digits, _ and - only (1–32)`, EXIT.usage);
    });
    await cli.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, with exit code 0; commander has printed its message.
      if (error.exitCode === 0) return EXIT.ok;
      // Its own messages (unknown option, missing argument…) went to stderr; with --json the document says it too.
      if (json) printError(argv, usageMessage(argv, error), EXIT.usage);
      return EXIT.usage;
    }
    const code = error instanceof CliError ? error.code : EXIT.failed;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`portal-cache: ${message}\n`);
    if (json) printError(argv, message, code, error instanceof CliError ? error.document : {});
    return code;
  }
}

/** Policy's own sub-commands, for the message when none is given. */
const POLICY_COMMANDS = ['get', 'set', 'unset', 'reset'];

/**
 * Commander's message for a usage error, as the --json document says it. With no (sub-)command it shows the help
 * and its message is only '(outputHelp)', an internal word: the document names what was missing instead.
 */
function usageMessage(argv: string[], error: CommanderError): string {
  if (error.code !== 'commander.help') return error.message.replace(/^error: /, '');
  return commandOf(argv).startsWith('policy')
    ? `no policy sub-command given: one of ${POLICY_COMMANDS.join(', ')} (portal-cache policy --help)`
    : `no command given: one of ${COMMANDS.join(', ')} (portal-cache --help)`;
}

/** The --json document of a command that failed: what was found (if anything), the message and the exit code. */
function printError(argv: string[], message: string, exitCode: number, document: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify(jsonDocument(commandOf(argv), { ...document, error: message, exitCode }), null, 2)}\n`);
}

/** The command word(s) of argv, for the `command` field of an error document. */
function commandOf(argv: string[]): string {
  const words = argv.filter((arg) => /^[a-z]+$/.test(arg));
  const first = words.find((word) => COMMANDS.includes(word)) ?? 'portal-cache';
  return first === 'policy' ? `policy ${words[words.indexOf('policy') + 1] ?? ''}`.trim() : first;
}

// Exit once stdout has drained, so a large --json document piped to another program is written out in full, and
// nothing left open (a socket to a Redis that stopped answering lingers after disconnect) holds the answer back.
void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  process.stdout.write('', () => process.exit(code));
});
