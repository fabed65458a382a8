/**
 * Articles as cards with their picture (the V2 template and topic pages). An article the CMS sent without a
 * thumbnail is a text card, its title over its summary, not an empty picture box.
 */
import { Link } from '../link';
import { href } from '../../routes';
import type { ArticleSummary } from '../../types/entities';
import { RelativeTime } from './RelativeTime';
import { SlotImage } from './SlotImage';

function ArticleCard({ item }: { item: ArticleSummary }) {
  const pictured = item.thumb !== '';
  return (
    <li className={pictured ? 'article-card' : 'article-card article-card--text'}>
      <Link to={href.detail(item.catid, item.id)}>
        {pictured && <SlotImage src={item.thumb} slot="card" width={400} height={225} lazy />}
        <span className="article-card__title">{item.title}</span>
      </Link>
      {!pictured && item.description && <p className="article-card__summary">{item.description}</p>}
      <p className="article-card__meta">
        {item.source && <span>{item.source}</span>}
        <RelativeTime unixSeconds={item.adddate} />
      </p>
    </li>
  );
}

export function ArticleCards({ items }: { items: readonly ArticleSummary[] }) {
  return (
    <ul className="article-cards">
      {items.map((item) => (
        <ArticleCard key={item.id} item={item} />
      ))}
    </ul>
  );
}
