/**
 * Suspense data for blocks: a promise per resource that React's `use` can read synchronously once it has
 * settled (status/value fields, as React tracks thenables), so a hydrating client that already has the value
 * from the streamed document never suspends.
 */
import type { ResourceName, ResourceValue } from '../../resources';

export type TrackedPromise<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

export function fulfilled<T>(value: T): TrackedPromise<T> {
  const promise = Promise.resolve(value) as TrackedPromise<T>;
  promise.status = 'fulfilled';
  promise.value = value;
  return promise;
}

export function tracked<T>(promise: Promise<T>): TrackedPromise<T> {
  const result = promise as TrackedPromise<T>;
  result.status = 'pending';
  promise.then(
    (value) => {
      result.status = 'fulfilled';
      result.value = value;
    },
    (reason: unknown) => {
      result.status = 'rejected';
      result.reason = reason;
    },
  );
  return result;
}

export interface ResourceStore {
  read<N extends ResourceName>(name: N): TrackedPromise<ResourceValue<N>>;
}

/** A store that reads each resource once, from `initial` when it has the value, else from `fetch`. */
export function createResourceStore(
  fetchResource: (name: ResourceName) => Promise<unknown>,
  initial: (name: ResourceName) => { found: true; value: unknown } | { found: false } = () => ({ found: false }),
): ResourceStore {
  const promises = new Map<ResourceName, TrackedPromise<unknown>>();
  return {
    read<N extends ResourceName>(name: N): TrackedPromise<ResourceValue<N>> {
      let promise = promises.get(name);
      if (!promise) {
        const known = initial(name);
        promise = known.found ? fulfilled(known.value) : tracked(fetchResource(name));
        promises.set(name, promise);
      }
      return promise as TrackedPromise<ResourceValue<N>>;
    },
  };
}
