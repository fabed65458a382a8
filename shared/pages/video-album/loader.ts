/** /videoAlbum/{id}?v={video}: a video album, playing ?v= when it is one of the album's videos, else the first. */
import { idParam } from '../../route-params';
import { shareImageOf, siteTitle } from '../../loaders/helpers';
import type { Loader } from '../../loaders/types';
import { definePageLoaders } from '../../loaders/define';
import { videoJsonLd } from '../../loaders/video-json-ld';
import route, { type VideoAlbumData } from './route';

export const loadVideoAlbum: Loader<VideoAlbumData> = async ({ params, query, site, content }) => {
  const id = idParam(params, 'id');
  if (id === undefined) return { kind: 'not-found' };
  const album = await content.videoAlbum(id);
  const first = album?.videos[0];
  if (!album || !first) return { kind: 'not-found' };
  const wanted = Number(query.get('v'));
  const current = album.videos.find((video) => video.id === wanted) ?? first;
  return {
    kind: 'ok',
    data: { album, current },
    head: {
      title: siteTitle(album.title, site),
      description: album.description,
      keywords: `${album.title},视频专辑`,
      ogType: 'video.other',
      ...shareImageOf(site, [album.cover, current.cover]),
      jsonLd: videoJsonLd(current, site),
    },
  };
};

export default definePageLoaders(route, { 'videoAlbum-id': loadVideoAlbum });
