/**
 * Header (docs/product.md §2): top bar, banner, logo with the site's name, the category menu and the search box. At
 * 1500px and wider the menu sits on the logo's row; narrower screens move it to a row of its own (CSS). Under 768px
 * (phones) the menu is one column behind the 菜单 button (./MenuToggle) and the search box takes a row of its own.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from '../link';
import { BANNER_HEIGHT_PX, PAGE_WIDTH_PX } from '../../constants';
import { href } from '../../routes';
import { usePortal } from '../context';
import { Menu } from './Menu';
import { MenuToggle, SITE_MENU_ID } from './MenuToggle';
import { SearchBox } from './SearchBox';
import { TopBar } from './TopBar';

function Banner() {
  const { state } = usePortal();
  const first = state.layout.banner[0];
  if (!first || !first.thumb) return null;
  return (
    <div className="page-width">
      <div className="banner" style={{ height: BANNER_HEIGHT_PX }}>
        <Link to={href.detail(first.catid, first.id)}>
          <img src={first.thumb || undefined} alt={first.title} width={PAGE_WIDTH_PX} height={BANNER_HEIGHT_PX} fetchPriority="high" />
        </Link>
      </div>
    </div>
  );
}

export function Header() {
  const { state } = usePortal();
  const { site } = state;
  // The phone menu's disclosure: open or not (ignored from 768px up, where the menu always shows).
  const [menuOpen, setMenuOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // A navigation closes the phone menu, as it closes any menu panel.
  useEffect(() => setMenuOpen(false), [state.page.path]);

  // Escape closes the phone menu and gives focus back to its button, unless the menu spent it closing a panel.
  const onMenuKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || !menuOpen || event.defaultPrevented) return;
    setMenuOpen(false);
    toggle.current?.focus();
  };

  return (
    <header className="site-header">
      <TopBar />
      <Banner />
      <div className="site-header__bar page-width">
        <Link to={href.home()} className="logo" aria-label={`${state.layout.seo.title} 首页`}>
          <span className="logo__mark">青年新闻网</span>
          {!site.isMain && <span className="logo__site">{site.name}</span>}
        </Link>
        <MenuToggle ref={toggle} open={menuOpen} onToggle={() => setMenuOpen(!menuOpen)} onKeyDown={onMenuKeyDown} />
        <div className={menuOpen ? 'site-header__menu site-header__menu--open' : 'site-header__menu'} id={SITE_MENU_ID} onKeyDown={onMenuKeyDown}>
          <Menu />
        </div>
        <SearchBox />
      </div>
    </header>
  );
}
