/** News tracking: the story's updates as a timeline, oldest first, each with its stage and time. */
import { Link } from '../../ui/link';
import { href } from '../../routes';
import { DateTime } from '../../ui/blocks/DateTime';
import type { NewsTrackData } from './route';
import { SlotImage } from '../../ui/blocks/SlotImage';

export default function NewsTrackPage({ data }: { data: NewsTrackData }) {
  return (
    <article className="news-track" aria-labelledby="track-title">
      <header>
        {data.cover && <SlotImage src={data.cover} slot="mainColumn" width={1264} height={320} className="topic__cover" />}
        <h1 id="track-title" className="page-title">
          {data.title}
        </h1>
        <p className="news-track__status">{data.ongoing ? '持续更新中' : '报道已完结'}</p>
        {data.description && <p className="topic__description">{data.description}</p>}
      </header>
      <ol className="timeline">
        {data.timeline.map(({ stage, article }) => (
          <li key={article.id} className="timeline__item">
            <DateTime unixSeconds={article.adddate} />
            <span className="timeline__stage">{stage}</span>
            <Link to={href.detail(article.catid, article.id)}>{article.title}</Link>
            {article.description && <p>{article.description}</p>}
          </li>
        ))}
      </ol>
    </article>
  );
}
