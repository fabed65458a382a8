/**
 * A real Sentinel set of the test's own: a master, one replica and three Sentinels (quorum 2) on free loopback
 * ports, with config files in a temp dir of its own (Sentinel rewrites them). Fast failure detection
 * (down-after 1 s) so a killed master is replaced within seconds. Every process is stopped by PID.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { OwnRedis, waitUntil } from './redis-server';

export const MASTER_NAME = 'portalmaster';
const SENTINELS = 3;
const QUORUM = 2;

export class OwnSentinelSet {
  private constructor(
    readonly master: OwnRedis,
    readonly replica: OwnRedis,
    readonly sentinels: OwnRedis[],
    private readonly dir: string,
  ) {}

  static async start(): Promise<OwnSentinelSet> {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-sentinel-'));
    const started: OwnRedis[] = [];
    try {
      const master = await OwnRedis.start({ args: () => ['--dir', dir] });
      started.push(master);
      const replica = await OwnRedis.start({ args: () => ['--dir', dir, '--replicaof', '127.0.0.1', String(master.port)] });
      started.push(replica);
      await waitUntil(async () => (await info(replica.port, 'replication')).includes('master_link_status:up'), 10_000, 'the replica to sync');
      const sentinels: OwnRedis[] = [];
      for (let index = 0; index < SENTINELS; index += 1) {
        const sentinel = await OwnRedis.start({ configFile: (port) => writeSentinelConfig(dir, port, master.port), sentinel: true });
        sentinels.push(sentinel);
        started.push(sentinel);
      }
      const set = new OwnSentinelSet(master, replica, sentinels, dir);
      // Failover needs every Sentinel to know the others and the replica: wait until each says quorum is reachable.
      await waitUntil(() => set.ready(), 30_000, 'the Sentinels to find each other and the replica');
      return set;
    } catch (error) {
      await Promise.all(started.map((server) => server.stop()));
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** `redis-sentinel://127.0.0.1:s1,127.0.0.1:s2,127.0.0.1:s3/portalmaster` */
  get url(): string {
    return `redis-sentinel://${this.sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(',')}/${MASTER_NAME}`;
  }

  /** The master's port as the first Sentinel reports it. */
  async masterPort(): Promise<number> {
    const reply = await command(this.sentinels[0]!.port, ['SENTINEL', 'get-master-addr-by-name', MASTER_NAME]);
    return Number((reply as [string, string])[1]);
  }

  private async ready(): Promise<boolean> {
    const checks = await Promise.all(
      this.sentinels.map(async (sentinel) => {
        const known = (await command(sentinel.port, ['SENTINEL', 'sentinels', MASTER_NAME])) as unknown[];
        const replicas = (await command(sentinel.port, ['SENTINEL', 'replicas', MASTER_NAME])) as unknown[];
        return known.length === SENTINELS - 1 && replicas.length === 1;
      }),
    );
    return checks.every(Boolean);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sentinels, this.replica, this.master].map((server) => server.stop()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function writeSentinelConfig(dir: string, port: number, masterPort: number): string {
  const file = path.join(dir, `sentinel-${port}.conf`);
  writeFileSync(
    file,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${masterPort} ${QUORUM}`,
      `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
      `sentinel failover-timeout ${MASTER_NAME} 5000`,
      `sentinel parallel-syncs ${MASTER_NAME} 1`,
      '',
    ].join('\n'),
  );
  return file;
}

async function command(port: number, args: [string, ...string[]]): Promise<unknown> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await client.call(...args);
  } finally {
    client.disconnect();
  }
}

export async function info(port: number, section: string): Promise<string> {
  return String(await command(port, ['INFO', section]));
}
