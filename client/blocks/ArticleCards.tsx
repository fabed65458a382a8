/** Articles as cards with their picture (the V2 template and topic pages). */
import { Link } from '../navigation/router';
import { href } from '../../shared/routes';
import type { ArticleSummary } from '../../shared/types/entities';
import { RelativeTime } from './RelativeTime';

export function ArticleCards({ items }: { items: readonly ArticleSummary[] }) {
  return (
    <ul className="article-cards">
      {items.map((item) => (
        <li key={item.id} className="article-card">
          <Link to={href.detail(item.catid, item.id)}>
            {item.thumb ? (
              <img src={item.thumb} alt="" width={400} height={225} loading="lazy" decoding="async" />
            ) : (
              <span className="article-card__placeholder" aria-hidden="true" />
            )}
            <span className="article-card__title">{item.title}</span>
          </Link>
          <p className="article-card__meta">
            {item.source && <span>{item.source}</span>}
            <RelativeTime unixSeconds={item.adddate} />
          </p>
        </li>
      ))}
    </ul>
  );
}
