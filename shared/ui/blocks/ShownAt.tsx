/**
 * A block placed for one range of widths: phones (under 768px) or wider screens, hidden (`display: none`, CSS) at
 * the others. For what a phone shows elsewhere than a desktop (an ad under the first items, the top bar's links in
 * the 菜单 panel; docs/decisions/0150-compact-phone-header.md): two placements in the markup, one shown at each
 * width, so the reading and focus order always follow what is on screen, and the page stays one cached HTML for
 * every width. A hidden copy costs no request of its own: its lazy pictures are never fetched, its carousel never
 * starts (it never comes near the viewport).
 */
import type { ReactNode } from 'react';

export type Widths = 'phone' | 'wide';

export function ShownAt({ widths, className, children }: { widths: Widths; className?: string; children: ReactNode }) {
  return <div className={className ? `${className} shown-at-${widths}` : `shown-at-${widths}`}>{children}</div>;
}
