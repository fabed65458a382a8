/**
 * Renders a block from a suspense resource and writes the value beside it as inert JSON, so the browser
 * hydrates the block from the same data without asking the server again. A data block is never executed, so it
 * carries neither a CSP nonce nor a hash (docs/security-headers.md).
 */
import { use, type ReactNode } from 'react';
import type { ResourceName, ResourceValue } from '../../resources';
import { serializeForScript } from '../../serialize';
import { usePortal } from '../context';

export const RESOURCE_ATTRIBUTE = 'data-resource';

export function Resource<N extends ResourceName>(props: { name: N; children: (value: ResourceValue<N>) => ReactNode }): ReactNode {
  const { resources } = usePortal();
  // React reads the status/value fields the store sets, so a settled resource does not suspend.
  const value = use<ResourceValue<N>>(resources.read(props.name) as Promise<ResourceValue<N>>);
  return (
    <>
      {props.children(value)}
      <script
        type="application/json"
        {...{ [RESOURCE_ATTRIBUTE]: props.name }}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: serializeForScript(value) }}
      />
    </>
  );
}
