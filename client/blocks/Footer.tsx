/** Footer: the site's friendly links, support links, and copyright with the current year in Asia/Shanghai. */
import { Link } from 'react-router-dom';
import { yearOf } from '../../shared/time';
import { usePortal } from '../context';

export function Footer() {
  const { state } = usePortal();
  const { friendlyLinks } = state.layout;
  return (
    <footer className="site-footer">
      <div className="page-width">
        <nav className="site-footer__support" aria-label="帮助">
          <Link to="/about">关于我们</Link>
          <a href="/about#contact">联系我们</a>
          <Link to="/siteMap">网站地图</Link>
        </nav>
        {friendlyLinks.length > 0 && (
          <nav className="site-footer__links" aria-label="友情链接">
            <span>友情链接：</span>
            {friendlyLinks.map((link) => (
              <a key={link.link + link.name} href={link.link} rel="noopener noreferrer" target="_blank">
                {link.name}
              </a>
            ))}
          </nav>
        )}
        <p className="site-footer__copyright">
          Copyright © {yearOf(state.page.now)} {state.layout.seo.title} 版权所有
        </p>
      </div>
    </footer>
  );
}
