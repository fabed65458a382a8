/** Types for proxy-addr (Express's own reading of X-Forwarded-For under `trust proxy`; the package ships none). */
declare module 'proxy-addr' {
  import type { IncomingMessage } from 'node:http';
  /** The client's address: the nearest hop of X-Forwarded-For that `trust` does not trust (or the peer itself). */
  function proxyaddr(req: IncomingMessage, trust: (addr: string, hop: number) => boolean): string;
  namespace proxyaddr {
    /** The trust function of a list of addresses, CIDRs and names (loopback…); throws on a malformed one. */
    function compile(value: string[]): (addr: string, hop: number) => boolean;
  }
  export = proxyaddr;
}
