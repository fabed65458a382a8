/**
 * What each image key of the dataset shows: an article's picture takes its category's hue and usual subject
 * (skylines for one channel, crowds or charts for another, with some articles differing), authors and users get
 * portraits, newspaper pages their broadsheet layout. Everything derives from the key and the dataset, so a
 * picture is the same on every request and every run with the same seed.
 */
import type { Dataset } from './dataset';
import type { ImageRequest } from './media';
import type { PictureJob } from './picture-job';
import { paintPictureJob } from './picture-painter';
import type { PictureKind, PictureSpec } from './pictures';
import { hashString } from './random';

const ARTICLE_KINDS: readonly PictureKind[] = ['landscape', 'skyline', 'crowd', 'chart'];
/** A channel's usual subject; charts are rarer, as they are on a news site. */
const CHANNEL_SUBJECTS: readonly PictureKind[] = ['landscape', 'skyline', 'crowd', 'landscape', 'skyline', 'crowd', 'chart'];

/** Subjects by key prefix for the pictures that are not an article's, an author's or a newspaper page. */
const KIND_BY_PREFIX: ReadonlyArray<readonly [RegExp, PictureKind]> = [
  [/^(av|u)\d/, 'portrait'],
  [/^(tp|sr|skin)/, 'skyline'],
  [/^(va|v|l|p|sk)\d/, 'crowd'],
  // Ads and 精品 posters are scenery, as travel and brand advertising mostly is.
  [/^(ad|bq)\d/, 'landscape'],
];

function articleSpec(dataset: Dataset, key: string, articleId: number): PictureSpec {
  const seed = hashString(key);
  const category = dataset.articleById.get(articleId)?.catname ?? '';
  const categoryHash = hashString(`category:${category}`);
  // Most of a channel's pictures share its subject; every fourth article differs, as real front pages mix them.
  const usual = CHANNEL_SUBJECTS[categoryHash % CHANNEL_SUBJECTS.length] ?? 'landscape';
  const others = ARTICLE_KINDS.filter((kind) => kind !== usual);
  const kind = seed % 4 === 0 ? (others[(seed >>> 4) % others.length] ?? usual) : usual;
  return { kind, seed, hue: categoryHash % 360 };
}

export function pictureSpec(dataset: Dataset, key: string): PictureSpec {
  const article = /^a(\d+)/.exec(key);
  if (article) return articleSpec(dataset, key, Number(article[1]));
  const seed = hashString(key);
  const kind = KIND_BY_PREFIX.find(([pattern]) => pattern.test(key))?.[1] ?? 'landscape';
  return { kind, seed, hue: seed % 360 };
}

/** The newspaper page a key names ('np70001p3'), or undefined. */
function newspaperPage(dataset: Dataset, key: string) {
  const match = /^np(\d+)p(\d+)$/.exec(key);
  if (!match) return undefined;
  const issue = dataset.newspapers.find((candidate) => candidate.id === Number(match[1]));
  return issue?.pages.find((page) => page.page_no === Number(match[2]));
}

/** The painting job for a picture request: a newspaper page's layout, or a photograph's subject and palette. */
export function pictureJobFor(dataset: Dataset, request: ImageRequest): PictureJob {
  const { width, height } = request;
  const page = newspaperPage(dataset, request.key);
  if (page) {
    return { kind: 'page', spec: { seed: hashString(request.key), pageWidth: page.width, pageHeight: page.height, blocks: page.areas }, width, height };
  }
  return { kind: 'picture', spec: pictureSpec(dataset, request.key), width, height };
}

/** The JPEG bytes of a picture, painted off the API's thread (./picture-painter.ts). */
export function pictureJpeg(dataset: Dataset, request: ImageRequest): Promise<Buffer> {
  return paintPictureJob(pictureJobFor(dataset, request));
}
