/** /videoAlbum/{id}?v={video}: a video album, playing ?v= when it is one of the album's videos, else the first. */
import { idParam } from '../../../shared/route-params';
import { mediaHead } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import { videoJsonLd } from '../video-json-ld';
import route, { type VideoAlbumData } from '../../../shared/pages/video-album/route';

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
    head: mediaHead(site, {
      title: album.title,
      description: album.description,
      kind: '视频专辑',
      images: [album.cover, current.cover],
      jsonLd: videoJsonLd(current, site),
    }),
  };
};

export default definePageLoaders(route, { 'videoAlbum-id': loadVideoAlbum });
