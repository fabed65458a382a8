/** Site map: every menu category with its sub-categories, the pages no menu holds, and the regional sites. */
import type { SiteMapData } from './route';
import { SiteLink } from '../../ui/blocks/SiteLink';
import { usePortal } from '../../ui/context';

/** Pages no menu entry leads to: the site map is where a reader finds each of them (issue 29, item 4). */
const FIXED_PAGES: ReadonlyArray<{ path: string; label: string }> = [
  { path: '/headlineNews', label: '头条新闻' },
  { path: '/hd', label: '高清图集' },
  { path: '/poster', label: '海报' },
  { path: '/electronic', label: '电子报' },
  { path: '/newspaperBoard', label: '报纸版面' },
  { path: '/specialColumn', label: '专栏' },
  { path: '/about', label: '关于我们' },
  { path: '/contribute', label: '我要投稿' },
  { path: '/seekingReport', label: '我要报料' },
  { path: '/moveInto', label: '我要入驻' },
  { path: '/license', label: '证照信息' },
];

export default function SiteMapPage({ data }: { data: SiteMapData }) {
  const { state } = usePortal();
  return (
    <article className="site-map" aria-labelledby="site-map-title">
      <h1 id="site-map-title" className="page-title">
        网站地图
      </h1>
      <div className="site-map__grid">
        {state.layout.menu.map((item) => (
          <section key={item.catid} aria-labelledby={`map-${item.catid}`}>
            <h2 id={`map-${item.catid}`}>{item.catname}</h2>
            <ul>
              {(item.children ?? []).map((child) => (
                <li key={child.catid}>{child.href !== undefined ? <SiteLink href={child.href}>{child.catname}</SiteLink> : child.catname}</li>
              ))}
            </ul>
          </section>
        ))}
      </div>
      <section aria-labelledby="map-pages">
        <h2 id="map-pages">栏目与服务</h2>
        <ul className="site-map__sites">
          {FIXED_PAGES.map((page) => (
            <li key={page.path}>
              <a href={page.path}>{page.label}</a>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="map-sites">
        <h2 id="map-sites">地方站</h2>
        <ul className="site-map__sites">
          {data.sites.map((site) => (
            <li key={site.domain}>
              <a href={`https://${site.domain}/`}>{site.name}</a>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}
