/**
 * 精品 items: picture stories (type 1, /hd) with several photos each, and posters (type 2, /poster) with one tall
 * image. Captions come from the same scene banks as article photos.
 */
import type { RawBoutiqueItem, RawImage } from '../../server/upstream/wire';
import { DAY_SECONDS } from './articles';
import { imagePath } from './media';
import type { Rng } from './random';
import { composeDescription, composeHeadline, personName, pickPlace } from './text';
import { CHANNELS, PHOTO_AGENCIES, type ChannelKey } from './words';

const PICTURE_STORIES = 24;
const POSTERS = 16;
const BOUTIQUE_CHANNELS: readonly ChannelKey[] = ['shehui', 'wenhua', 'keji', 'qingnian', 'tiyu', 'sannong'];
const POSTER_SLOGANS: readonly string[] = [
  '青春正当时',
  '奋斗的青春最美丽',
  '节气里的中国',
  '致敬劳动者',
  '你好，新学期',
  '守护绿水青山',
  '一起向未来',
  '书香伴我行',
  '平安回家路',
  '致敬最美逆行者',
  '国潮正当红',
  '全民健身 活力中国',
];

export function generateBoutique(rng: Rng, now: number): RawBoutiqueItem[] {
  const items: RawBoutiqueItem[] = [];
  for (let index = 0; index < PICTURE_STORIES + POSTERS; index += 1) {
    const id = 301 + index;
    const channel = rng.pick(BOUTIQUE_CHANNELS);
    const adddate = now - rng.int(3600, 180 * DAY_SECONDS);
    if (index < PICTURE_STORIES) {
      const place = pickPlace(rng, { channel });
      const images: RawImage[] = Array.from({ length: rng.int(4, 8) }, (_, photo) => ({
        url: imagePath(`bq${id}i${photo + 1}`, 1200, 800),
        width: 1200,
        height: 800,
        caption: `${place}，${rng.pick(CHANNELS[channel].scenes)}。${rng.pick(PHOTO_AGENCIES)} ${personName(rng)} 摄`,
      }));
      items.push({
        id,
        type: 1,
        title: `组图｜${composeHeadline(rng, { channel }).short}`,
        description: composeDescription(rng, { channel }),
        cover: images[0]?.url ?? imagePath(`bq${id}`, 1200, 800),
        images,
        adddate,
      });
    } else {
      const slogan = rng.pick(POSTER_SLOGANS);
      const url = imagePath(`bq${id}`, 750, 1334);
      items.push({
        id,
        type: 2,
        title: `海报｜${slogan}`,
        description: composeDescription(rng, { channel }),
        cover: url,
        images: [{ url, width: 750, height: 1334, caption: slogan }],
        adddate,
      });
    }
  }
  return items.sort((left, right) => (right.adddate ?? 0) - (left.adddate ?? 0) || right.id - left.id);
}

export function presentBoutique(item: RawBoutiqueItem, media: (path: string) => string): RawBoutiqueItem {
  return { ...item, cover: media(item.cover), images: item.images.map((image) => ({ ...image, url: media(image.url) })) };
}
