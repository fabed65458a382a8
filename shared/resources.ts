/**
 * Blocks that load their own data behind <Suspense> (hot news, …): the page's shell streams without waiting
 * for them. Each resource is a named content call; on the server it runs through the data cache during the
 * render, in the browser it is read from the streamed document or fetched from the server's resource endpoint.
 */
import { HOT_NEWS_ID, HOT_NEWS_SIZE } from './constants';
import type { ContentApi } from './content-api';

export const RESOURCES = {
  hotNews: async (content: ContentApi) => (await content.articleList(HOT_NEWS_ID, 1, HOT_NEWS_SIZE)).items,
} satisfies Record<string, (content: ContentApi) => Promise<unknown>>;

export type ResourceName = keyof typeof RESOURCES;
export type ResourceValue<N extends ResourceName> = Awaited<ReturnType<(typeof RESOURCES)[N]>>;

export function isResourceName(name: string): name is ResourceName {
  return Object.prototype.hasOwnProperty.call(RESOURCES, name);
}
