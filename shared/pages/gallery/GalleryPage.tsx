/** /hd picture stories and /poster posters: a grid of covers; each story's pictures with captions below it. */
import { useLocation } from 'react-router-dom';
import type { GalleryData } from './route';
import { Pagination } from '../../ui/blocks/Pagination';
import { SlotImage } from '../../ui/blocks/SlotImage';

export default function GalleryPage({ data }: { data: GalleryData }) {
  const { pathname } = useLocation();
  return (
    <section className={`gallery gallery--${data.kind}`} aria-labelledby="gallery-title">
      <h1 id="gallery-title" className="page-title">
        {data.title}
      </h1>
      <ul className="gallery__grid">
        {data.items.map((item) => (
          <li key={item.id} className="gallery__item">
            <details>
              <summary>
                <SlotImage src={item.cover} slot="galleryCover" width={data.kind === 'poster' ? 375 : 400} height={data.kind === 'poster' ? 667 : 267} lazy />
                <span className="gallery__title">{item.title}</span>
              </summary>
              <p>{item.description}</p>
              {item.images.map((image) => (
                <figure key={image.url}>
                  <SlotImage src={image.url} slot="galleryCover" alt={image.caption} width={image.width} height={image.height} lazy />
                  <figcaption>{image.caption}</figcaption>
                </figure>
              ))}
            </details>
          </li>
        ))}
      </ul>
      <Pagination basePath={pathname} page={data.page} lastPage={data.lastPage} />
    </section>
  );
}
