/**
 * Special columns (docs/product.md §2, §4): 4 column authors at a time, each with a subscribe button; '换一换' shows the
 * next 4, back to the first page after the last. A signed-in reader's subscriptions to all the loaded authors
 * come in one batch_exist call after hydration. An ad below.
 */
import { Suspense, useState } from 'react';
import { nextPageIndex } from '../../carousel';
import { SPECIAL_COLUMN_PAGE_SIZE } from '../../constants';
import { href } from '../../routes';
import type { Advertisement, ColumnAuthor } from '../../types/entities';
import { Resource } from '../data/Resource';
import { useAuthorGroup, useInteractionGroup } from '../lib/use-interactions';
import { AdCarousel } from './AdCarousel';
import { InteractionButton } from './InteractionButton';
import { ScriptOnly } from './ScriptOnly';
import { densitySrcSet } from '../../image-sizes';
import { useImages } from '../context';

function ColumnPage({ authors }: { authors: readonly ColumnAuthor[] }) {
  const images = useImages();
  const [page, setPage] = useState(1);
  const subscriptions = useInteractionGroup(useAuthorGroup(authors));
  const shown = authors.slice((page - 1) * SPECIAL_COLUMN_PAGE_SIZE, page * SPECIAL_COLUMN_PAGE_SIZE);
  return (
    <>
      <ul className="column-list" data-page={page}>
        {shown.map((author) => (
          <li key={author.id}>
            <a href={href.specialColumnDetail(author.id)}>
              <img src={author.avatar || undefined} srcSet={densitySrcSet(author.avatar, 48, images)} alt="" width={48} height={48} loading="lazy" />
              <span className="column-list__name">{author.name}</span>
              <span className="column-list__desc">{author.description}</span>
            </a>
            <InteractionButton
              kind="author"
              id={author.id}
              controls={subscriptions}
              className="subscribe-button subscribe-button--small"
              subject={author.name}
            />
          </li>
        ))}
      </ul>
      {/* Without script the heading's link to /specialColumn shows every author. */}
      {authors.length > SPECIAL_COLUMN_PAGE_SIZE && (
        <ScriptOnly>
          <button type="button" className="text-button" onClick={() => setPage(nextPageIndex(page, authors.length, SPECIAL_COLUMN_PAGE_SIZE))}>
            换一换
          </button>
        </ScriptOnly>
      )}
    </>
  );
}

/** What stands in for the authors while they stream in: rows of the authors' own height (placeholders.test.ts). */
export function ColumnsSkeleton() {
  return (
    <ul className="column-list" aria-busy="true">
      {Array.from({ length: SPECIAL_COLUMN_PAGE_SIZE }, (_, index) => (
        <li key={index} className="column-list__placeholder" />
      ))}
    </ul>
  );
}

export function SpecialColumns({ adsBelow = [] }: { adsBelow?: readonly Advertisement[] }) {
  return (
    <section className="side-block special-columns" aria-labelledby="special-columns-title">
      <h2 id="special-columns-title" className="block-title">
        {/* The only way to every column author (/specialColumn), with or without script. */}
        <a href="/specialColumn">专栏</a>
      </h2>
      <Suspense fallback={<ColumnsSkeleton />}>
        <Resource name="columnAuthors">{(value) => <ColumnPage authors={value.list} />}</Resource>
      </Suspense>
      <AdCarousel ads={adsBelow} label="专栏广告" />
    </section>
  );
}
