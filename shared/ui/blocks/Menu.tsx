/**
 * The horizontal category menu: real links (docs/product.md §2 template rules), sub-menu panels that open on hover and
 * on keyboard focus and close on leave or on Escape however they opened; a level-1 item that leads nowhere is a button with aria-expanded
 * (Enter, Space and ↓ open its panel again after Escape). Misconfigured items are buttons that say what is wrong
 * (docs/product.md §5 warnings). Before script, CSS :hover/:focus-within opens the panels.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { MenuEntry } from '../../menu';
import { SPECIAL_TOPICS_URL } from '../chrome-links';
import { usePortal } from '../context';
import { useEscape } from '../lib/use-escape';
import { SiteLink } from './SiteLink';
import { showToast } from './Toast';

/** A level-1 item's panel, as its trigger needs it: whether it is open, and how to flip it. */
interface PanelControl {
  id: string;
  open: boolean;
  toggle: () => void;
}

function MenuItemTarget({ item, panel }: { item: MenuEntry; panel?: PanelControl }) {
  if (item.href !== undefined) return <SiteLink href={item.href}>{item.catname}</SiteLink>;
  const warning = item.warning;
  if (warning !== undefined) {
    return (
      <button type="button" className="menu__item--misconfigured" title={warning} onClick={() => showToast(warning)}>
        {item.catname}
      </button>
    );
  }
  // Level-1 items with templates 1, 2, 5 lead nowhere themselves: a real button that opens and closes their panel
  // (Enter, Space, a click), saying whether it is open. Without script CSS opens the panel on its focus.
  if (panel !== undefined) {
    return (
      <button
        type="button"
        className="menu__label"
        aria-expanded={panel.open}
        aria-controls={panel.id}
        onClick={(event) => {
          // A mouse click on a hovered item (its panel already open) keeps it open; Enter and Space (detail 0) flip it.
          if (event.detail === 0 || !panel.open) panel.toggle();
        }}
      >
        {item.catname}
      </button>
    );
  }
  return <span className="menu__label">{item.catname}</span>;
}

export function Menu() {
  const { state } = usePortal();
  const [open, setOpen] = useState<number | null>(null);
  const [scripted, setScripted] = useState(false);
  // After Escape, focus goes back to the item's own link; that focus must not reopen the panel just closed.
  const dismissed = useRef<number | null>(null);
  useEffect(() => setScripted(true), []);
  // A navigation closes any panel left open.
  useEffect(() => setOpen(null), [state.page.path]);
  // A panel opened by the pointer, focus elsewhere: Escape closes it too, focus left where it is. With focus in
  // the menu, onKeyDown below has spent the key first and moved focus to the item.
  useEscape(open !== null, () => {
    dismissed.current = open;
    setOpen(null);
  });

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // ↓ on a level-1 item opens its panel (again, after Escape), instead of scrolling the page.
    const item = (event.target as HTMLElement).closest<HTMLElement>('.menu__item[data-catid]');
    if (event.key === 'ArrowDown' && item && open === null && (event.target as HTMLElement).parentElement === item) {
      event.preventDefault();
      dismissed.current = null;
      setOpen(Number(item.dataset.catid));
      return;
    }
    if (event.key !== 'Escape' || open === null) return;
    // Spent on the panel: the phone menu around it (./Header) stays open until the next Escape.
    event.preventDefault();
    dismissed.current = open;
    setOpen(null);
    const trigger = event.currentTarget.querySelector<HTMLElement>('.menu__item--open > a, .menu__item--open > span, .menu__item--open > button');
    trigger?.focus();
  };

  return (
    <nav className={scripted ? 'menu menu--scripted' : 'menu'} aria-label="栏目导航" onKeyDown={onKeyDown}>
      <ul className="menu__level1">
        {state.layout.menu.map((item) => {
          const children = item.children ?? [];
          const hasPanel = children.length > 0;
          const isOpen = open === item.catid;
          return (
            <li
              key={item.catid}
              className={isOpen ? 'menu__item menu__item--open' : 'menu__item'}
              data-catid={hasPanel ? item.catid : undefined}
              onMouseEnter={() => hasPanel && setOpen(item.catid)}
              onMouseLeave={() => setOpen(null)}
              onFocus={() => {
                if (dismissed.current !== item.catid) setOpen(hasPanel ? item.catid : null);
              }}
              onBlur={(event) => {
                if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
                dismissed.current = null;
                setOpen(null);
              }}
            >
              <MenuItemTarget
                item={item}
                panel={
                  hasPanel
                    ? {
                        id: `menu-panel-${item.catid}`,
                        open: isOpen,
                        toggle: () => {
                          dismissed.current = isOpen ? item.catid : null;
                          setOpen(isOpen ? null : item.catid);
                        },
                      }
                    : undefined
                }
              />
              {hasPanel && (
                <ul className="menu__level2" id={`menu-panel-${item.catid}`} aria-label={`${item.catname}子栏目`}>
                  {children.map((child) => (
                    <li key={child.catid}>
                      <MenuItemTarget item={child} />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
        <li className="menu__item">
          <a href={SPECIAL_TOPICS_URL} target="_blank" rel="noopener noreferrer">
            特别专题
          </a>
        </li>
      </ul>
    </nav>
  );
}
