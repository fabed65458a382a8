/** The horizontal category menu: real links (SPEC §2 template rules), sub-menus as nested lists. */
import { Link } from 'react-router-dom';
import { menuTarget } from '../../shared/menu';
import type { Category } from '../../shared/types/entities';
import { usePortal } from '../context';

function MenuEntry({ item, parent, onMainSite }: { item: Category; parent: Category | null; onMainSite: boolean }) {
  const target = menuTarget(item, parent, onMainSite);
  if (target.kind === 'link' && target.external) return <a href={target.href}>{item.catname}</a>;
  if (target.kind === 'link') return <Link to={target.href}>{item.catname}</Link>;
  if (target.kind === 'warning') {
    return (
      <span className="menu__item--misconfigured" title={target.message}>
        {item.catname}
      </span>
    );
  }
  return <span>{item.catname}</span>;
}

export function Menu() {
  const { state } = usePortal();
  const onMainSite = state.site.isMain;
  return (
    <nav className="menu" aria-label="栏目导航">
      <ul className="menu__level1">
        {state.layout.menu.map((item) => (
          <li key={item.catid} className="menu__item">
            <MenuEntry item={item} parent={null} onMainSite={onMainSite} />
            {item.children.length > 0 && (
              <ul className="menu__level2">
                {item.children.map((child) => (
                  <li key={child.catid}>
                    <MenuEntry item={child} parent={item} onMainSite={onMainSite} />
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
