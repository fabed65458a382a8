/**
 * The 菜单 button of phones (under 768px): it shows and hides the category menu, a disclosure saying with
 * aria-expanded whether the menu shows. It is in the server's markup, but CSS shows it only with script (the head
 * script's `js` class on <html>): without script the menu stays in the page's flow, reachable with no button to
 * press (docs/decisions/0070-phone-menu-behind-a-button.md). From 768px up it is never shown.
 */
import type { Ref } from 'react';

export const SITE_MENU_ID = 'site-menu';

export function MenuToggle({ ref, open, onToggle }: { ref: Ref<HTMLButtonElement>; open: boolean; onToggle: () => void }) {
  return (
    <button ref={ref} type="button" className="menu-toggle" aria-expanded={open} aria-controls={SITE_MENU_ID} onClick={onToggle}>
      <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
      </svg>
      菜单
    </button>
  );
}
