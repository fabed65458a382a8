/**
 * Header (docs/product.md §2): top bar, banner, logo with the site's name, the category menu and the search box. At
 * 1500px and wider the menu sits on the logo's row; narrower screens move it to a row of its own (CSS).
 */
import { Link } from '../link';
import { BANNER_HEIGHT_PX, PAGE_WIDTH_PX } from '../../constants';
import { href } from '../../routes';
import { usePortal } from '../context';
import { Menu } from './Menu';
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
          <img src={first.thumb} alt={first.title} width={PAGE_WIDTH_PX} height={BANNER_HEIGHT_PX} fetchPriority="high" />
        </Link>
      </div>
    </div>
  );
}

export function Header() {
  const { state } = usePortal();
  const { site } = state;
  return (
    <header className="site-header">
      <TopBar />
      <Banner />
      <div className="site-header__bar page-width">
        <Link to={href.home()} className="logo" aria-label={`${state.layout.seo.title} 首页`}>
          <span className="logo__mark">青年新闻网</span>
          {!site.isMain && <span className="logo__site">{site.name}</span>}
        </Link>
        <div className="site-header__menu">
          <Menu />
        </div>
        <SearchBox />
      </div>
    </header>
  );
}
