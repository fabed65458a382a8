/** Article detail: the float menu beside the article (headline, time, source and author, sanitised body, tags, each a link to its page). */
import type { DetailData } from './route';
import { href } from '../../routes';
import { Link } from '../../ui/link';
import { AdCarousel } from '../../ui/blocks/AdCarousel';
import { ArticleContent } from '../../ui/blocks/ArticleContent';
import { ArticleList } from '../../ui/blocks/ArticleList';
import { Breadcrumb } from '../../ui/blocks/Breadcrumb';
import { FloatMenu } from '../../ui/blocks/FloatMenu';

/** The top ad's slot; from 768px up main.css keeps this much room (and 24px) over the columns for it. */
const TOP_AD_HEIGHT_PX = 120;

export default function DetailPage({ data }: { data: DetailData }) {
  const { article, related, ads } = data;
  // The top ad, once: under the headline in the markup (a phone shows it there, issue 38, and every reader reaches
  // the news first); from 768px up CSS lifts it over both columns, where it always was (decision 0150).
  const topAd = ads.detailTop.length > 0 && (
    <div className="detail-top-ad">
      <AdCarousel ads={ads.detailTop} height={TOP_AD_HEIGHT_PX} label="顶部广告" eager />
    </div>
  );
  return (
    <div className="detail">
      <Breadcrumb catid={article.catid} catname={article.catname} />
      <div className="detail__tools">
        <FloatMenu article={{ catid: article.catid, id: article.id, title: article.fullTitle }} mode="detail" />
      </div>
      <ArticleContent article={article} afterHeader={topAd}>
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
