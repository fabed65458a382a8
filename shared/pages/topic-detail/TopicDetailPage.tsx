/** One special topic: its cover and introduction, then its articles. */
import type { TopicDetailData } from './route';
import { ArticleCards } from '../../ui/blocks/ArticleCards';
import { SLOT_SIZES, widthSrcSet } from '../../image-sizes';

export default function TopicDetailPage({ data }: { data: TopicDetailData }) {
  return (
    <article className="topic" aria-labelledby="topic-title">
      <header className="topic__header">
        {data.cover && (
          <img
            src={data.cover || undefined}
            srcSet={widthSrcSet(data.cover)}
            sizes={SLOT_SIZES.mainColumn}
            alt=""
            width={1264}
            height={360}
            className="topic__cover"
          />
        )}
        <h1 id="topic-title" className="page-title">
          {data.title}
        </h1>
        {data.description && <p className="topic__description">{data.description}</p>}
      </header>
      <ArticleCards items={data.articles} />
    </article>
  );
}
