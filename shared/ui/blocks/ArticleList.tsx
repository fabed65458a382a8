/** A list of article links with their relative times. */
import { Link } from '../link';
import { href } from '../../routes';
import type { ArticleLink } from '../../types/entities';
import { RelativeTime } from './RelativeTime';

export function ArticleList({ items, className }: { items: readonly ArticleLink[]; className?: string }) {
  return (
    <ul className={className ?? 'article-list'}>
      {items.map((item) => (
        <li key={item.id}>
          <Link to={href.detail(item.catid, item.id)}>{item.title}</Link>
          <RelativeTime unixSeconds={item.adddate} />
        </li>
      ))}
    </ul>
  );
}
