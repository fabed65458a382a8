/**
 * Column authors (专栏): avatar, name and introduction, page by page, each with a subscribe button. A signed-in
 * reader's subscriptions for the whole page come in one batch_exist call after hydration.
 */
import { Link } from '../../ui/link';
import { useLocation } from 'react-router-dom';
import type { SpecialColumnData } from './route';
import { href } from '../../routes';
import { InteractionButton } from '../../ui/blocks/InteractionButton';
import { Pagination } from '../../ui/blocks/Pagination';
import { useAuthorGroup, useInteractionGroup } from '../../ui/lib/use-interactions';
import { densitySrcSet } from '../../image-sizes';
import { useImages } from '../../ui/context';

export default function SpecialColumnPage({ data }: { data: SpecialColumnData }) {
  const images = useImages();
  const { pathname } = useLocation();
  const subscriptions = useInteractionGroup(useAuthorGroup(data.authors));
  return (
    <section className="columnists" aria-labelledby="columnists-title">
      <h1 id="columnists-title" className="page-title">
        专栏
      </h1>
      <ul className="columnist-grid">
        {data.authors.map((author) => (
          <li key={author.id} className="columnist">
            <img
              src={author.avatar || undefined}
              srcSet={densitySrcSet(author.avatar, 96, images)}
              alt=""
              width={96}
              height={96}
              loading="lazy"
              decoding="async"
            />
            <div className="columnist__text">
              <h2 className="columnist__name">
                <Link to={href.specialColumnDetail(author.id)}>{author.name}</Link>
              </h2>
              <p className="columnist__bio">{author.description}</p>
            </div>
            <InteractionButton kind="author" id={author.id} controls={subscriptions} className="subscribe-button" subject={author.name} />
          </li>
        ))}
      </ul>
      <Pagination basePath={pathname} page={data.page} lastPage={data.lastPage} />
    </section>
  );
}
