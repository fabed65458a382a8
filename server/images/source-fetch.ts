/**
 * An original picture read for the resizer: one GET to a configured media origin, nothing else (docs/images.md,
 * docs/security.md "The content API is not trusted"). No redirect is followed (node:http follows none; a 3xx is a
 * failure), the address a name resolves to is checked as the connection is made (so a name cannot point at
 * loopback or the internal network, not even by changing between two look-ups), the bytes are counted while they
 * arrive and the whole read has one deadline, so a slow or endless origin ties up nothing for long.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export type SourceFailure = 'redirect' | 'status' | 'too-large' | 'timeout' | 'private-address' | 'unreachable';

export class SourceError extends Error {
  constructor(
    readonly reason: SourceFailure,
    message: string,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export interface SourceLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Loopback, private and link-local addresses may be reached (a CMS on the internal network). */
  allowPrivate: boolean;
}

/** Every range an outside picture host has no business in: loopback, private, link-local, CGNAT, unspecified. */
const PRIVATE_RANGES = (() => {
  const list = new net.BlockList();
  for (const [address, prefix] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3],
  ] as const) {
    list.addSubnet(address, prefix, 'ipv4');
  }
  for (const [address, prefix] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ] as const) {
    list.addSubnet(address, prefix, 'ipv6');
  }
  return list;
})();

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE_RANGES.check(mapped, 'ipv4');
  const family = net.isIP(address);
  if (family === 0) return true;
  return PRIVATE_RANGES.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** dns.lookup, refusing a private answer: the check is on the address the socket connects to. */
function guardedLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void,
): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) return callback(new SourceError('private-address', `${hostname} resolves to ${refused.address}, a private address`), '');
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
}

/** The original's bytes and its declared type; throws SourceError for every way the read can fail. */
export function fetchSource(url: URL, limits: SourceLimits): Promise<{ bytes: Buffer; contentType: string }> {
  const hostIp = url.hostname.replace(/^\[|\]$/g, '');
  if (!limits.allowPrivate && net.isIP(hostIp) !== 0 && isPrivateAddress(hostIp)) {
    return Promise.reject(new SourceError('private-address', `${url.host} is a private address`));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const fail = (error: SourceError): void => {
      clearTimeout(deadline);
      request.destroy();
      reject(error);
    };
    const request = client.get(
      url,
      {
        headers: { Accept: 'image/avif,image/webp,image/png,image/jpeg,image/*;q=0.8', 'User-Agent': 'qnnews-portal-resizer' },
        ...(limits.allowPrivate ? {} : { lookup: guardedLookup }),
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) return fail(new SourceError('redirect', `the original answered ${status} (redirects are not followed)`));
        if (status !== 200) return fail(new SourceError('status', `the original answered ${status}`));
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > limits.maxBytes)
          return fail(new SourceError('too-large', `the original is ${declared} bytes, over ${limits.maxBytes}`));
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > limits.maxBytes) return fail(new SourceError('too-large', `the original is over ${limits.maxBytes} bytes`));
          chunks.push(chunk);
        });
        response.on('end', () => {
          clearTimeout(deadline);
          resolve({ bytes: Buffer.concat(chunks), contentType: String(response.headers['content-type'] ?? '') });
        });
        response.on('error', () => fail(new SourceError('unreachable', 'the original was cut off')));
      },
    );
    const deadline = setTimeout(() => fail(new SourceError('timeout', `the original took over ${limits.timeoutMs} ms`)), limits.timeoutMs);
    request.on('error', (error) =>
      fail(error instanceof SourceError ? error : new SourceError('unreachable', `the original could not be read: ${error.message}`)),
    );
  });
}
