/** Special topics (专题), a grid of covers, page by page. */
import { Link } from '../../ui/link';
import { useLocation } from 'react-router-dom';
import type { TopicListData } from './route';
import { href } from '../../routes';
import { Pagination } from '../../ui/blocks/Pagination';
import { SlotImage } from '../../ui/blocks/SlotImage';

export default function TopicListPage({ data }: { data: TopicListData }) {
  const { pathname } = useLocation();
  return (
    <section className="topics" aria-labelledby="topics-title">
      <h1 id="topics-title" className="page-title">
        {data.title}
      </h1>
      <ul className="topic-grid">
        {data.topics.map((topic) => (
          <li key={topic.id} className="topic-card">
            <Link to={href.topicDetail(topic.id)}>
              <SlotImage src={topic.thumb} slot="card" width={400} height={225} lazy />
              <span className="topic-card__title">{topic.title}</span>
            </Link>
            <p className="topic-card__description">{topic.description}</p>
          </li>
        ))}
      </ul>
      <Pagination basePath={pathname} page={data.page} lastPage={data.lastPage} />
    </section>
  );
}
