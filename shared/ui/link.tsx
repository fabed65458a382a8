/**
 * The portal's `Link`: a plain anchor. Its click is React Router's to handle, by one listener on the document
 * (client/navigation/app-links.ts) that sends an unmodified primary click on a link to a page of the route table
 * to `router.navigate`, so no link resolves its path or takes hooks on every render: React Router's own `Link`
 * was a tenth of a signed-in render's CPU (docs/decisions/0051-react-router-data-mode-measured.md).
 */
import type { AnchorHTMLAttributes } from 'react';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path of this portal, absolute (`/detail/1/2`). */
  to: string;
}

export function Link({ to, children, ...rest }: LinkProps) {
  return (
    <a href={to} {...rest}>
      {children}
    </a>
  );
}
