/** Header: banner, logo with the site's name, and the category menu. */
import { Link } from 'react-router-dom';
import { BANNER_HEIGHT_PX } from '../../shared/constants';
import { href } from '../../shared/routes';
import { usePortal } from '../context';
import { Menu } from './Menu';

function Banner() {
  const { state } = usePortal();
  const first = state.layout.banner[0];
  if (!first || !first.thumb) return null;
  return (
    <div className="banner" style={{ height: BANNER_HEIGHT_PX }}>
      <Link to={href.detail(first.catid, first.id)} aria-label={first.title}>
        <img src={first.thumb} alt={first.title} width={1296} height={BANNER_HEIGHT_PX} fetchPriority="high" />
      </Link>
    </div>
  );
}

export function Header() {
  const { state } = usePortal();
  const { site } = state;
  return (
    <header className="site-header">
      <Banner />
      <div className="site-header__bar page-width">
        <Link to={href.home()} className="logo" aria-label={`${state.layout.seo.title} 首页`}>
          <span className="logo__mark">青年新闻网</span>
          {!site.isMain && <span className="logo__site">{site.name}</span>}
        </Link>
      </div>
      <div className="page-width">
        <Menu />
      </div>
    </header>
  );
}
