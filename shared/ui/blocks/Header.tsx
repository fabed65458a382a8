/**
 * Header (docs/product.md §2): top bar, banner, logo with the site's name, the category menu and the search box. At
 * 1500px and wider the menu sits on the logo's row; narrower screens move it to a row of its own (CSS). Under 768px
 * (phones) the header is one compact row, so the first headline is on the first screen: the logo, the 菜单 button
 * (./MenuToggle) and the search behind its icon; no banner, and the top bar's links at the end of the 菜单 panel
 * (docs/decisions/0150-compact-phone-header.md).
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from '../link';
import { BANNER_HEIGHT_PX, PAGE_WIDTH_PX } from '../../constants';
import { href } from '../../routes';
import { useImages, usePortal } from '../context';
import { SLOT_SIZES, widthSrcSet } from '../../image-sizes';
import { useEscape } from '../lib/use-escape';
import { Menu } from './Menu';
import { MenuToggle, SITE_MENU_ID } from './MenuToggle';
import { SearchBox } from './SearchBox';
import { PhoneServices, TopBar } from './TopBar';

/** The widths the compact header is for (client/styles/main.css, the 767px media query). */
const PHONE_MEDIA = '(max-width: 767px)';
/** A 1×1 transparent GIF: a source that costs no request. */
const EMPTY_PICTURE = 'data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==';

function Banner() {
  const { state } = usePortal();
  const images = useImages();
  const first = state.layout.banner[0];
  if (!first || !first.thumb) return null;
  return (
    // Not on phones (CSS): 200px of picture before the news.
    <div className="page-width site-header__banner">
      <div className="banner" style={{ height: BANNER_HEIGHT_PX }}>
        <Link to={href.detail(first.catid, first.id)}>
          <picture>
            {/* A phone never shows the banner: it picks this empty source instead of fetching the picture. */}
            <source media={PHONE_MEDIA} srcSet={EMPTY_PICTURE} />
            <img
              src={first.thumb || undefined}
              srcSet={widthSrcSet(first.thumb, images, 'banner')}
              sizes={SLOT_SIZES.banner}
              alt={first.title}
              width={PAGE_WIDTH_PX}
              height={BANNER_HEIGHT_PX}
              fetchPriority="high"
            />
          </picture>
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

  // Escape closes the phone menu, wherever focus is, and gives focus back to its button, unless the menu spent it
  // closing a panel.
  useEscape(menuOpen, () => {
    setMenuOpen(false);
    toggle.current?.focus();
  });

  return (
    <header className="site-header">
      <TopBar />
      <Banner />
      <div className="site-header__bar page-width">
        <Link to={href.home()} className="logo" aria-label={`${state.layout.seo.title} 首页`}>
          <span className="logo__mark">青年新闻网</span>
          {!site.isMain && <span className="logo__site">{site.name}</span>}
        </Link>
        <MenuToggle ref={toggle} open={menuOpen} onToggle={() => setMenuOpen(!menuOpen)} />
        <div className={menuOpen ? 'site-header__menu site-header__menu--open' : 'site-header__menu'} id={SITE_MENU_ID}>
          <Menu />
          <PhoneServices />
        </div>
        <SearchBox />
      </div>
    </header>
  );
}
