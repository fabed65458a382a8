/**
 * Reading mode (docs/product.md §2): the article alone, dark or light (the float menu's night toggle), a way back to the
 * detail page, and '上一篇'/'下一篇' within the category's latest 10 with their publish times.
 */
import { Link } from '../../ui/link';
import { TEXT } from '../../constants';
import type { ReadingData, ReadingNeighbour } from './route';
import { href } from '../../routes';
import { ArticleContent } from '../../ui/blocks/ArticleContent';
import { FloatMenu } from '../../ui/blocks/FloatMenu';
import { RelativeTime } from '../../ui/blocks/RelativeTime';

function NeighbourLink({ item, label, className }: { item: ReadingNeighbour; label: string; className: string }) {
  return (
    <Link className={className} to={href.detailReading(item.catid, item.id)} rel={className === 'reading__next' ? 'next' : 'prev'}>
      <span>
        {label}：{item.title}
      </span>
      <RelativeTime unixSeconds={item.adddate} />
    </Link>
  );
}

export default function ReadingPage({ data }: { data: ReadingData }) {
  const { article, previous, next } = data;
  return (
    <div className="reading">
      <div className="detail__tools">
        <FloatMenu article={{ catid: article.catid, id: article.id, title: article.fullTitle }} mode="reading" />
      </div>
      <div>
        <Link className="reading__back" to={href.detail(article.catid, article.id)}>
          ← 返回
        </Link>
        <ArticleContent article={article} />
        {(previous || next) && (
          <nav className="reading__nav" aria-label="上下篇">
            {previous && <NeighbourLink item={previous} label={TEXT.previous} className="reading__previous" />}
            {next && <NeighbourLink item={next} label={TEXT.next} className="reading__next" />}
          </nav>
        )}
      </div>
    </div>
  );
}
