/** Article detail: the float menu beside the article (headline, time, source and author, sanitised body, tags, each a link to its page). */
import type { DetailData } from './route';
import { href } from '../../routes';
import { Link } from '../../ui/link';
import { AdCarousel, DETAIL_TOP_AD_HEIGHT_PX } from '../../ui/blocks/AdCarousel';
import { ArticleContent } from '../../ui/blocks/ArticleContent';
import { ArticleList } from '../../ui/blocks/ArticleList';
import { Breadcrumb } from '../../ui/blocks/Breadcrumb';
import { FloatMenu } from '../../ui/blocks/FloatMenu';
import { ShownAt } from '../../ui/blocks/ShownAt';

export default function DetailPage({ data }: { data: DetailData }) {
  const { article, related, ads } = data;
  // A phone's place for the top ad (the layout's own is hidden there): under the headline, not above it (issue 38).
  const phoneAd = ads.detailTop.length > 0 && (
    <ShownAt widths="phone" className="detail-phone-ad">
      <AdCarousel ads={ads.detailTop} height={DETAIL_TOP_AD_HEIGHT_PX} label="顶部广告" />
    </ShownAt>
  );
  return (
    <div className="detail">
      <Breadcrumb catid={article.catid} catname={article.catname} />
      <div className="detail__tools">
        <FloatMenu article={{ catid: article.catid, id: article.id, title: article.fullTitle }} mode="detail" />
      </div>
      <ArticleContent article={article} afterHeader={phoneAd}>
        {article.tags.length > 0 && (
          <ul className="article__tags" aria-label="标签">
            {article.tags.map((tag) => (
              <li key={tag.id}>
                <Link className="article__tag" to={href.tag(tag.id)}>
                  {tag.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
        {related.length > 0 && (
          <section className="related" aria-labelledby="related-title">
            <h2 id="related-title" className="block-title">
              相关阅读
            </h2>
            <ArticleList items={related} />
          </section>
        )}
      </ArticleContent>
    </div>
  );
}
