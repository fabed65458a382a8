/**
 * What a piece of work costs Redis, read from Redis itself, so it does not depend on how loaded the machine is:
 * the commands it ran (INFO commandstats), the bytes it took in and sent out (INFO stats), the memory it holds
 * (INFO memory, MEMORY USAGE), and the round trips a client made (a counting proxy between them). Used by the
 * capacity rows (capacity.ts), each on a redis-server of the bench's own, so no other client's commands count.
 */
import net from 'node:net';
import type { RedisClient } from '../../server/redis/client';

export interface RedisCounters {
  /** Calls by command name (lower case), from INFO commandstats. */
  calls: Map<string, number>;
  netInput: number;
  netOutput: number;
  usedMemory: number;
}

function infoFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}

/** The counters now. The INFO calls themselves count too: a few commands and about 10 KiB out, said where it matters. */
export async function countersOf(client: RedisClient): Promise<RedisCounters> {
  const [commandstats, stats, memory] = await Promise.all([client.info('commandstats'), client.info('stats'), client.info('memory')]);
  const calls = new Map<string, number>();
  for (const [name, value] of infoFields(commandstats)) {
    const count = /calls=(\d+)/.exec(value)?.[1];
    if (name.startsWith('cmdstat_') && count !== undefined) calls.set(name.slice('cmdstat_'.length), Number(count));
  }
  const statFields = infoFields(stats);
  return {
    calls,
    netInput: Number(statFields.get('total_net_input_bytes') ?? 0),
    netOutput: Number(statFields.get('total_net_output_bytes') ?? 0),
    usedMemory: Number(infoFields(memory).get('used_memory') ?? 0),
  };
}

export interface CounterDelta {
  /** Commands run, by name, leaving out the INFO and MEMORY calls of the measurement itself. */
  calls: Map<string, number>;
  commands: number;
  netInput: number;
  netOutput: number;
  usedMemory: number;
}

const MEASURING = new Set(['info', 'memory']);

export function deltaOf(before: RedisCounters, after: RedisCounters): CounterDelta {
  const calls = new Map<string, number>();
  for (const [name, count] of after.calls) {
    const delta = count - (before.calls.get(name) ?? 0);
    if (delta > 0 && !MEASURING.has(name)) calls.set(name, delta);
  }
  return {
    calls,
    commands: [...calls.values()].reduce((sum, count) => sum + count, 0),
    netInput: after.netInput - before.netInput,
    netOutput: after.netOutput - before.netOutput,
    usedMemory: after.usedMemory - before.usedMemory,
  };
}

/** `get 2, evalsha 1`: the commands of a delta, most first. */
export function commandList(delta: CounterDelta, per = 1): string {
  return [...delta.calls]
    .sort((left, right) => right[1] - left[1])
    .map(([name, count]) => `${name} ${formatCount(count / per)}`)
    .join(', ');
}

export function formatCount(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1);
}

/** MEMORY USAGE of each key (SAMPLES 0: every member of a set counted), summed; pipelined in chunks. */
export async function memoryOfKeys(client: RedisClient, keys: readonly string[]): Promise<number> {
  let total = 0;
  for (let start = 0; start < keys.length; start += 1000) {
    const pipeline = client.pipeline();
    for (const key of keys.slice(start, start + 1000)) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
    const replies = (await pipeline.exec()) ?? [];
    for (const [error, bytes] of replies) if (!error) total += Number(bytes ?? 0);
  }
  return total;
}

/**
 * A TCP proxy in front of a Redis that counts round trips: a client's bytes arriving after Redis has answered
 * since the client last sent are a new trip (a pipeline is one, however many reads it spans). Exact for one client
 * whose commands are sequential or pipelined; concurrent requests on one connection may share a trip.
 */
export interface RoundTripProxy {
  url: string;
  /** Trips since start or the last reset. */
  trips(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startRoundTripProxy(redisUrl: string): Promise<RoundTripProxy> {
  const target = new URL(redisUrl);
  let trips = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let answered = true;
    client.on('data', (bytes) => {
      if (answered) trips += 1;
      answered = false;
      upstream.write(bytes);
    });
    upstream.on('data', (bytes) => {
      answered = true;
      client.write(bytes);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    trips: () => trips,
    reset: () => {
      trips = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
