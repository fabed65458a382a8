/**
 * The horizontal category menu: real links (docs/product.md §2 template rules), sub-menu panels that open on hover and
 * on keyboard focus and close on leave or Escape. Misconfigured items are buttons that say what is wrong
 * (docs/product.md §5 warnings). Before script, CSS :hover/:focus-within opens the panels.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { MenuEntry } from '../../menu';
import { SPECIAL_TOPICS_URL } from '../chrome-links';
import { usePortal } from '../context';
import { SiteLink } from './SiteLink';
import { showToast } from './Toast';

function MenuItemTarget({ item }: { item: MenuEntry }) {
  if (item.href !== undefined) return <SiteLink href={item.href}>{item.catname}</SiteLink>;
  const warning = item.warning;
  if (warning !== undefined) {
    return (
      <button type="button" className="menu__item--misconfigured" title={warning} onClick={() => showToast(warning)}>
        {item.catname}
      </button>
    );
  }
  // Level-1 items with templates 1, 2, 5 do nothing on click; focusable so the keyboard reaches their panel.
  return (
    <span className="menu__label" tabIndex={item.children ? 0 : undefined}>
      {item.catname}
    </span>
  );
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

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || open === null) return;
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
              <MenuItemTarget item={item} />
              {hasPanel && (
                <ul className="menu__level2" aria-label={`${item.catname}子栏目`}>
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
