/** Article detail: the float menu beside the article (headline, time, source and author, sanitised body, tags, each a link to its page). */
import type { DetailData } from './route';
import { href } from '../../routes';
import { Link } from '../../ui/link';
import { ArticleContent } from '../../ui/blocks/ArticleContent';
import { ArticleList } from '../../ui/blocks/ArticleList';
import { Breadcrumb } from '../../ui/blocks/Breadcrumb';
import { FloatMenu } from '../../ui/blocks/FloatMenu';

export default function DetailPage({ data }: { data: DetailData }) {
  const { article, related } = data;
  return (
    <div className="detail">
      <Breadcrumb catid={article.catid} catname={article.catname} />
      <div className="detail__tools">
        <FloatMenu article={{ catid: article.catid, id: article.id, title: article.fullTitle }} mode="detail" />
      </div>
      <ArticleContent article={article}>
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
