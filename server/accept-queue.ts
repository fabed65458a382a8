/**
 * How many connections the kernel holds for a listening port that the process has not accepted yet: the accept
 * queue (handshake done: the client has sent its request already) and the SYN queue (handshake under way).
 * Closing a listener resets every one of them, so a draining server closes its listener only once both are
 * empty (http-server.ts). Under CPU load a Node process accepts slowly: connections opened seconds before a
 * SIGTERM were measured still queued when the listener closed, and reset (docs/operations.md, "Draining").
 *
 * Read from /proc/net/tcp and /proc/net/tcp6 (Linux, the image's system): for a listening socket `rx_queue` is
 * the accept queue's length; a connection in the SYN queue has a line of its own in state SYN_RECV. Elsewhere,
 * or when /proc cannot be read, the answer is null: unknown.
 */
import { readFileSync } from 'node:fs';

const TABLES = ['/proc/net/tcp', '/proc/net/tcp6'];
const LISTEN = '0A';
const SYN_RECV = '03';

/** Queued connections on local port `port` (every address it listens on), or null when this system cannot tell. */
export function queuedConnections(port: number, tables: readonly string[] = TABLES): number | null {
  const portHex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let queued = 0;
  let readable = false;
  for (const table of tables) {
    let text: string;
    try {
      text = readFileSync(table, 'latin1');
    } catch {
      continue;
    }
    readable = true;
    queued += queuedIn(text, portHex);
  }
  return readable ? queued : null;
}

/** The table's queued connections on the port: listeners' rx_queue, plus one per half-open connection. */
export function queuedIn(table: string, portHex: string): number {
  let queued = 0;
  for (const line of table.split('\n').slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue …
    const [, local, , state, queues] = line.trim().split(/\s+/);
    if (!local?.endsWith(portHex) || queues === undefined) continue;
    if (state === SYN_RECV) queued += 1;
    else if (state === LISTEN) queued += Number.parseInt(queues.split(':')[1] ?? '0', 16) || 0;
  }
  return queued;
}
