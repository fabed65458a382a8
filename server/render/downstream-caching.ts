/**
 * Whether a rendered response may tell shared caches (a CDN) to keep it: only one the portal is sure to store.
 * A streamed render sends its headers with the shell, before the blocks behind <Suspense> have loaded, so it is
 * public only when, as its headers go out, it is an anonymous 200 with every call answered cleanly and no block
 * still loading; anything else is `private, no-store`. And never one with something of its own in it: a render
 * streamed to a reader runs its scripts by this response's CSP nonce (docs/security-headers.md), worthless once a
 * shared cache hands it on. Such a render is stored with its scripts' hashes instead and shared from its first
 * HIT; a crawler's render is stored before it is sent, and sent as stored (render-miss.ts).
 */
import type { ResourceName } from '../../shared/resources';

export interface ShareCheck {
  /** The render has a page-cache key (an anonymous reader). */
  cacheable: boolean;
  status: number;
  /** A call failed or was served past grace (stale-if-error). */
  degraded: boolean;
  /** Every <Suspense> resource the render asked for has settled. */
  resourcesSettled: boolean;
  /** The response carries a value of its own (a CSP nonce): only its reader may have it. */
  perResponse: boolean;
}

export function maySharedCachesKeep(check: ShareCheck): boolean {
  return check.cacheable && check.status === 200 && !check.degraded && check.resourcesSettled && !check.perResponse;
}

/** Wraps a render's resource loads to know, when the headers are written, whether any is still loading. */
export class ResourceLoads {
  private pending = 0;

  constructor(private readonly loadResource: (name: ResourceName) => Promise<unknown>) {}

  readonly load = (name: ResourceName): Promise<unknown> => {
    this.pending += 1;
    const settle = () => {
      this.pending -= 1;
    };
    const loading = this.loadResource(name);
    loading.then(settle, settle);
    return loading;
  };

  get settled(): boolean {
    return this.pending === 0;
  }
}
