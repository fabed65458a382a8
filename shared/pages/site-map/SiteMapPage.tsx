/** Site map: every menu category with its sub-categories, and the regional sites. */
import type { SiteMapData } from './route';
import { SiteLink } from '../../ui/blocks/SiteLink';
import { usePortal } from '../../ui/context';

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
