/**
 * A real Redis Cluster of the test's own: N masters (no replicas) on free loopback ports, each with its
 * nodes.conf in a temp dir of the test's own, joined by `redis-cli --cluster create`. Stopped by PID.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { freePort } from '../../scripts/free-port';
import { OwnRedis, waitUntil } from './redis-server';

const run = promisify(execFile);

export class OwnRedisCluster {
  private constructor(
    readonly nodes: OwnRedis[],
    private readonly dir: string,
  ) {}

  static async start(masters = 3): Promise<OwnRedisCluster> {
    const dir = mkdtempSync(path.join(tmpdir(), 'portal-cluster-'));
    const nodes: OwnRedis[] = [];
    const cluster = new OwnRedisCluster(nodes, dir);
    try {
      for (let index = 0; index < masters; index += 1) {
        // The bus port is port + 10000 unless named, which is past 65535 for much of the ephemeral range.
        const busPort = await freePort();
        nodes.push(
          await OwnRedis.start({
            // A short node timeout: a stopped master is noticed (cluster_state:fail) within about a second.
            args: (port) => [
              ...['--dir', dir, '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`],
              ...['--cluster-port', String(busPort), '--cluster-node-timeout', '1000'],
            ],
          }),
        );
      }
      const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
      await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes'], { timeout: 30_000 });
      await waitUntil(() => cluster.allNodesSay('cluster_state:ok'), 20_000, 'the cluster to be ok on every node');
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  /** `redis-cluster://127.0.0.1:p1,127.0.0.1:p2,…` */
  get url(): string {
    return `redis-cluster://${this.nodes.map((node) => `127.0.0.1:${node.port}`).join(',')}`;
  }

  /** Whether every running node's CLUSTER INFO holds the line (e.g. cluster_state:ok). */
  async allNodesSay(line: string): Promise<boolean> {
    const infos = await Promise.all(this.nodes.map((node) => clusterInfo(node.port)));
    return infos.every((info) => info.split(/\r?\n/).includes(line));
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.stop()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

async function clusterInfo(port: number): Promise<string> {
  const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return String(await client.cluster('INFO'));
  } finally {
    client.disconnect();
  }
}
