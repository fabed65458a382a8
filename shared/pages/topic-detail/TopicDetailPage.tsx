/** One special topic: its cover and introduction, then its articles. */
import type { TopicDetailData } from './route';
import { ArticleCards } from '../../ui/blocks/ArticleCards';
import { SlotImage } from '../../ui/blocks/SlotImage';

export default function TopicDetailPage({ data }: { data: TopicDetailData }) {
  return (
    <article className="topic" aria-labelledby="topic-title">
      <header className="topic__header">
        {data.cover && <SlotImage src={data.cover} slot="mainColumn" width={1264} height={360} className="topic__cover" />}
        <h1 id="topic-title" className="page-title">
          {data.title}
        </h1>
        {data.description && <p className="topic__description">{data.description}</p>}
      </header>
      <ArticleCards items={data.articles} />
    </article>
  );
}
