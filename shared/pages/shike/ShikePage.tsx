/** 视刻: short videos of one category, with the other categories as tabs. */
import { Link } from '../../ui/link';
import { useLocation } from 'react-router-dom';
import { shikeTitle, type ShikeData } from './route';
import { Pagination } from '../../ui/blocks/Pagination';
import { VideoGrid } from '../../ui/blocks/VideoGrid';

export default function ShikePage({ data }: { data: ShikeData }) {
  const { pathname } = useLocation();
  return (
    <section className="shike" aria-labelledby="shike-title">
      <h1 id="shike-title" className="page-title">
        {shikeTitle(data.category.name)}
      </h1>
      <nav className="category__tabs" aria-label="视刻分类">
        {data.categories.map((category) => (
          <Link key={category.id} to={`/shike/${category.id}`} aria-current={category.id === data.category.id ? 'page' : undefined}>
            {category.name}
          </Link>
        ))}
      </nav>
      {data.category.description && <p className="topic__description">{data.category.description}</p>}
      <VideoGrid videos={data.videos} />
      <Pagination basePath={pathname} page={data.page} lastPage={data.lastPage} />
    </section>
  );
}
