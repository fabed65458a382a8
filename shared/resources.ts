/**
 * Blocks that load their own data behind <Suspense> (hot news, …): the page's shell streams without waiting
 * for them. Each resource is a named content call; on the server it runs through the data cache during the
 * render, in the browser it is read from the streamed document or fetched from the server's resource endpoint.
 */
import { HOT_NEWS_ID, HOT_NEWS_SIZE, RECOMMENDED_TOPICS_SHOWN } from './constants';
import type { ContentApi } from './content-api';
import { articleLink, type TopicCover } from './types/entities';

/** Authors asked for per call; the block loads every page the API reports (up to a bound) so 换一换 cycles all. */
const COLUMN_AUTHORS_CALL_SIZE = 20;
const COLUMN_AUTHORS_MAX_CALLS = 10;

async function allColumnAuthors(content: ContentApi) {
  const first = await content.columnAuthors(1, COLUMN_AUTHORS_CALL_SIZE);
  const calls = Math.min(COLUMN_AUTHORS_MAX_CALLS, Math.ceil(first.count / COLUMN_AUTHORS_CALL_SIZE));
  const rest = await Promise.all(Array.from({ length: Math.max(0, calls - 1) }, (_, index) => content.columnAuthors(index + 2, COLUMN_AUTHORS_CALL_SIZE)));
  return { ...first, list: [...first.list, ...rest.flatMap((page) => page.list)] };
}

export const RESOURCES = {
  // Each value is what its block reads and no more: it is written into every page that shows the block.
  /** Hot news: links (rank, title). */
  hotNews: async (content: ContentApi) => (await content.articleList(HOT_NEWS_ID, 1, HOT_NEWS_SIZE)).items.map(articleLink),
  /** Recommended topics: covers of the first 4 of the topic list (docs/product.md §2 detail layout). */
  topics: async (content: ContentApi): Promise<TopicCover[]> =>
    (await content.topics(1, RECOMMENDED_TOPICS_SHOWN))
      .slice(0, RECOMMENDED_TOPICS_SHOWN)
      .map(({ id, title, thumb, jump }) => ({ id, title, thumb, jump: { switch_value_android: jump.switch_value_android } })),
  /**
   * Special column authors, several pages of 4 in one cached call: the block pages through them in the browser
   * (wrapping to page 1 after the last) without a request per click.
   */
  columnAuthors: allColumnAuthors,
} satisfies Record<string, (content: ContentApi) => Promise<unknown>>;

export type ResourceName = keyof typeof RESOURCES;
export type ResourceValue<N extends ResourceName> = Awaited<ReturnType<(typeof RESOURCES)[N]>>;

export function isResourceName(name: string): name is ResourceName {
  return Object.prototype.hasOwnProperty.call(RESOURCES, name);
}
