/**
 * The one link component for hrefs that come from data or configuration (ads, chrome links, menu and site-map
 * entries): a page of the route table on this site navigates on the client with React Router, anything else is
 * a plain anchor (new tab for other origins when `newTab` is set).
 */
import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { Link } from '../link';
import { appPathOf } from '../../site-links';
import { usePortal } from '../context';

type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'target' | 'rel'>;

export interface SiteLinkProps extends AnchorProps {
  href: string;
  children: ReactNode;
  /** Links leaving the portal open in a new tab with this rel (e.g. 'noopener noreferrer sponsored'). */
  newTab?: string;
}

export function SiteLink({ href, newTab, children, ...rest }: SiteLinkProps) {
  const { state } = usePortal();
  const path = appPathOf(href, state.site.domain);
  if (path !== null) {
    return (
      <Link to={path} {...rest}>
        {children}
      </Link>
    );
  }
  const external = newTab !== undefined && /^https?:/i.test(href);
  return (
    <a href={href} {...rest} {...(external ? { target: '_blank', rel: newTab } : {})}>
      {children}
    </a>
  );
}
