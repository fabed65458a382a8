/**
 * A portal behind a proxy it does not trust sees every reader as the proxy: one rate-limit bucket for all, one
 * address in every log line. That is a configuration mistake (TRUST_PROXY unset or naming another address), and
 * the headers that would tell are right there, so the first request carrying them from an untrusted peer is
 * logged, once per process: enough to be noticed, never a line per request.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import type { Logger } from '../platform/logger';
import { rememberTrust, type TrustsPeer } from './request-context';

/** Headers in which a proxy names the client it forwards for. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/** Express's `trust proxy fn` setting as a typed function (Express types every setting as any). */
export function compiledTrust(setting: unknown): TrustsPeer {
  if (typeof setting !== 'function') throw new Error('Express has no compiled trust proxy function');
  return (addr, hop) => Boolean((setting as (addr: string, hop: number) => unknown)(addr, hop));
}

function forwardingHeaderOf(req: IncomingMessage): string | null {
  return FORWARDING_HEADERS.find((name) => req.headers[name] !== undefined) ?? null;
}

/**
 * `next`, after noting (once) a forwarding header sent by a peer `trusts` does not trust. Every request carries
 * `trusts` on from here, so its access-log line names the client as TRUST_PROXY reads it (request-context.ts).
 */
export function withForwardedHeaderCheck(trusts: TrustsPeer, logger: Logger, next: RequestListener): RequestListener {
  let reported = false;
  return (req, res) => {
    rememberTrust(req, trusts);
    if (!reported) {
      const header = forwardingHeaderOf(req);
      const peer = req.socket.remoteAddress ?? '';
      if (header && !trusts(peer, 0)) {
        reported = true;
        logger.warn(
          { peer, header },
          `${header} from ${peer}, a peer TRUST_PROXY does not trust: its claim is ignored, so rate limits and logs see the peer's address; if ${peer} is your load balancer, add it to TRUST_PROXY`,
        );
      }
    }
    next(req, res);
  };
}
