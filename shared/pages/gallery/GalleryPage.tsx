/** /hd picture stories and /poster posters: a grid of covers; each story's pictures with captions below it. */
import { useLocation } from 'react-router-dom';
import type { GalleryData } from './route';
import { Pagination } from '../../ui/blocks/Pagination';
import { SLOT_SIZES, widthSrcSet } from '../../image-sizes';

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
                <img
                  src={item.cover || undefined}
                  srcSet={widthSrcSet(item.cover)}
                  sizes={SLOT_SIZES.galleryCover}
                  alt=""
                  width={data.kind === 'poster' ? 375 : 400}
                  height={data.kind === 'poster' ? 667 : 267}
                  loading="lazy"
                  decoding="async"
                />
                <span className="gallery__title">{item.title}</span>
              </summary>
              <p>{item.description}</p>
              {item.images.map((image) => (
                <figure key={image.url}>
                  <img
                    src={image.url || undefined}
                    srcSet={widthSrcSet(image.url)}
                    sizes={SLOT_SIZES.galleryCover}
                    alt={image.caption}
                    width={image.width}
                    height={image.height}
                    loading="lazy"
                    decoding="async"
                  />
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
