/**
 * Footer (docs/product.md §2): logo, about, support links, the site's friendly links, media matrix and mobile-site QR
 * codes, address and phone, report hotline, copyright (current year in Asia/Shanghai), licence (a link to
 * /license, as every footer variant's), ICP record and product matrix; the support links include 我要投稿
 * (/contribute), linked nowhere else. `variant`: 'small' (contribute, seekingReport, moveInto) keeps only the legal lines;
 * 'siteMap' adds the company's details.
 */
import { Link } from '../link';
import { yearOf } from '../../time';
import { COMPANY, MEDIA_MATRIX, MOBILE_SITE_URL, PRODUCT_MATRIX, RECRUITMENT_URL } from '../chrome-links';
import { usePortal } from '../context';
import { QrImage } from './QrImage';
import { SiteLink } from './SiteLink';

export type FooterVariant = 'full' | 'small' | 'siteMap';

const MOBILE_QR_PX = 70;

function LegalLines() {
  const { state } = usePortal();
  return (
    <div className="site-footer__legal">
      <p>
        Copyright © {yearOf(state.page.now)} {state.layout.seo.title} 版权所有
      </p>
      <p>
        <Link to="/license">{COMPANY.licence}</Link>
        <a href={COMPANY.icpUrl} target="_blank" rel="noopener noreferrer">
          {COMPANY.icp}
        </a>
        <span>{COMPANY.publicSecurityRecord}</span>
      </p>
    </div>
  );
}

function CompanyInfo() {
  return (
    <section className="site-footer__company" aria-label="公司信息">
      <h2 className="site-footer__heading">{COMPANY.name}</h2>
      <p>地址：{COMPANY.address}</p>
      <p>电话：{COMPANY.phone}</p>
      <p>
        违法和不良信息举报电话：{COMPANY.reportHotline} 举报邮箱：{COMPANY.reportEmail}
      </p>
    </section>
  );
}

export function Footer({ variant = 'full' }: { variant?: FooterVariant }) {
  const { state } = usePortal();
  const { friendlyLinks } = state.layout;
  if (variant === 'small') {
    return (
      <footer className="site-footer site-footer--small">
        <div className="page-width">
          <LegalLines />
        </div>
      </footer>
    );
  }
  return (
    <footer className="site-footer">
      <div className="page-width">
        <div className="site-footer__top">
          <div className="site-footer__brand">
            <span className="logo__mark">青年新闻网</span>
            <p>地址：{COMPANY.address}</p>
            <p>电话：{COMPANY.phone}</p>
            <p>举报电话：{COMPANY.reportHotline}</p>
          </div>
          <nav className="site-footer__support" aria-label="关于与支持">
            <h2 className="site-footer__heading">关于</h2>
            <Link to="/about">关于我们</Link>
            <h2 className="site-footer__heading">支持</h2>
            <SiteLink href="/about#contact">联系我们</SiteLink>
            <Link to="/siteMap">网站地图</Link>
            <Link to="/contribute">我要投稿</Link>
            <SiteLink href={RECRUITMENT_URL}>招聘信息</SiteLink>
          </nav>
          <section className="site-footer__matrix" aria-label="媒体矩阵">
            <h2 className="site-footer__heading">媒体矩阵</h2>
            <ul className="qr-grid">
              {MEDIA_MATRIX.map((account) => (
                <li key={account.name}>
                  <QrImage value={account.url} size={MOBILE_QR_PX} label={`${account.name}二维码`} />
                  <span>{account.name}</span>
                </li>
              ))}
              <li>
                <QrImage value={MOBILE_SITE_URL} size={MOBILE_QR_PX} label="手机版二维码" />
                <span>手机版</span>
              </li>
            </ul>
          </section>
        </div>
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
        <nav className="site-footer__products" aria-label="产品矩阵">
          <span>产品矩阵：</span>
          {PRODUCT_MATRIX.map((product) => (
            <SiteLink key={product.name} href={product.url} newTab="noopener noreferrer">
              {product.name}
            </SiteLink>
          ))}
        </nav>
        {variant === 'siteMap' && <CompanyInfo />}
        <LegalLines />
      </div>
    </footer>
  );
}
