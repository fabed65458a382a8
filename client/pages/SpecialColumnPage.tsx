/** Column authors (专栏): avatar, name and introduction, page by page. */
import { useLocation } from 'react-router-dom';
import type { SpecialColumnData } from '../../shared/loaders/special-column';
import { Pagination } from '../blocks/Pagination';

export default function SpecialColumnPage({ data }: { data: SpecialColumnData }) {
  const { pathname } = useLocation();
  return (
    <section className="columnists" aria-labelledby="columnists-title">
      <h1 id="columnists-title" className="page-title">
        专栏
      </h1>
      <ul className="columnist-grid">
        {data.authors.map((author) => (
          <li key={author.id} className="columnist">
            <img src={author.avatar} alt="" width={96} height={96} loading="lazy" decoding="async" />
            <div>
              <h2 className="columnist__name">{author.name}</h2>
              <p className="columnist__bio">{author.description}</p>
            </div>
          </li>
        ))}
      </ul>
      <Pagination basePath={pathname} page={data.page} lastPage={data.lastPage} />
    </section>
  );
}
