import {
  AD_WIDTH,
  adSrc,
  densitySrcSet,
  IMAGE_WIDTHS,
  oneWidthSrc,
  POSTER_WIDTH,
  SLOT_WIDTHS,
  widthSrcSet,
  withBodyImageCandidates,
} from '../../shared/image-sizes';
import { boxedUrl, IMAGES_OFF, parseResizedPath, RESIZER_WIDTHS, resizedUrl, type ImagePipeline } from '../../shared/image-pipeline';
import { sanitiseArticleHtml } from '../../server/upstream/sanitise-html';

const REFERENCE = 'http://127.0.0.1:4000/media/img/a33722f1-800x1067.jpg';

describe('srcset from a picture whose path names its size', () => {
  it('offers every width of the ladder under the picture, then the picture itself, at its aspect', () => {
    expect(widthSrcSet(REFERENCE, IMAGES_OFF, 'card')).toBe(
      [
        'http://127.0.0.1:4000/media/img/a33722f1-160x213.jpg 160w',
        'http://127.0.0.1:4000/media/img/a33722f1-240x320.jpg 240w',
        'http://127.0.0.1:4000/media/img/a33722f1-320x427.jpg 320w',
        'http://127.0.0.1:4000/media/img/a33722f1-480x640.jpg 480w',
        'http://127.0.0.1:4000/media/img/a33722f1-640x854.jpg 640w',
        `${REFERENCE} 800w`,
      ].join(', '),
    );
    expect(widthSrcSet('/media/img/skin1-1920x200.jpg', IMAGES_OFF, 'card')?.split(', ')).toHaveLength(IMAGE_WIDTHS.length);
  });

  it('offers a fixed-width picture at 1x, 2x and 3x, never past its own size', () => {
    expect(densitySrcSet('/media/img/av1-200x200.jpg', 48, IMAGES_OFF)).toBe(
      '/media/img/av1-48x48.jpg 1x, /media/img/av1-96x96.jpg 2x, /media/img/av1-144x144.jpg 3x',
    );
    expect(densitySrcSet('/media/img/av1-200x200.jpg', 96, IMAGES_OFF)).toBe(
      '/media/img/av1-96x96.jpg 1x, /media/img/av1-192x192.jpg 2x, /media/img/av1-200x200.jpg 3x',
    );
    expect(densitySrcSet('/media/img/av1-120x120.jpg', 96, IMAGES_OFF)).toBe('/media/img/av1-96x96.jpg 1x, /media/img/av1-120x120.jpg 2x');
  });

  it.each([
    'https://cms.example.cn/uploads/2026/11/photo.jpg',
    '/media/img/a1-800x600.svg',
    '/media/img/A1-800x600.jpg',
    '/media/img/a1-800x600.jpg?x=1',
    '',
    undefined,
  ])('offers nothing for %p, whose size cannot be asked for', (src) => {
    expect(widthSrcSet(src, IMAGES_OFF, 'card')).toBeUndefined();
    expect(densitySrcSet(src, 48, IMAGES_OFF)).toBeUndefined();
  });
});

describe('article body pictures', () => {
  it('lose the CMS’s own srcset when sanitised, and get the column-sized one when drawn', () => {
    const html = sanitiseArticleHtml(
      `<p><img src="${REFERENCE}" srcset="https://cms.example.cn/big.jpg 2x" sizes="100vw" width="800" height="1067" alt="图"></p>`,
    );
    expect(html).not.toContain('srcset');
    expect(html).not.toContain('cms.example.cn');
    const drawn = withBodyImageCandidates(html, IMAGES_OFF);
    expect(drawn).toContain(`srcset="${widthSrcSet(REFERENCE, IMAGES_OFF, 'articleBody')}"`);
    expect(drawn).toContain('sizes="(max-width: 767px) calc(100vw - 32px), 808px"');
  });

  it('are left as they are otherwise', () => {
    const html = sanitiseArticleHtml('<p><img src="https://cms.example.cn/a.jpg" srcset="https://cms.example.cn/b.jpg 2x" alt="图"></p>');
    expect(html).toBe('<p><img src="https://cms.example.cn/a.jpg" alt="图" loading="lazy" decoding="async" /></p>');
    expect(withBodyImageCandidates(html, IMAGES_OFF)).toBe(html);
  });

  it('go through the resizer when their origin is configured, escaped as attributes', () => {
    const pipeline: ImagePipeline = { kind: 'cdn', origins: ['https://cms.example.cn'], template: '{src}?p=w_{width}&f={format}', format: 'webp' };
    const html = sanitiseArticleHtml('<p><img alt="图" src="https://cms.example.cn/a.jpg"></p>');
    const drawn = withBodyImageCandidates(html, pipeline);
    expect(drawn).toContain('srcset="https://cms.example.cn/a.jpg?p=w_480&amp;f=webp 480w, ');
    expect(drawn).toContain('https://cms.example.cn/a.jpg?p=w_1920&amp;f=webp 1920w"');
  });
});

describe('an image pipeline', () => {
  const resizer: ImagePipeline = { kind: 'resizer', origins: ['https://img.example.cn'], relative: true };

  it('offers every slot its ladder through the resizer, one immutable address per width', () => {
    const src = 'https://img.example.cn/2026/12/photo.jpg?v=2';
    for (const slot of Object.keys(SLOT_WIDTHS) as (keyof typeof SLOT_WIDTHS)[]) {
      const candidates = widthSrcSet(src, resizer, slot)!.split(', ');
      expect(candidates.map((candidate) => Number(/ (\d+)w$/.exec(candidate)![1]))).toEqual(SLOT_WIDTHS[slot]);
      for (const candidate of candidates) {
        const [url, descriptor] = candidate.split(' ');
        expect(parseResizedPath(url!)).toEqual({ width: parseInt(descriptor!, 10), src });
      }
    }
  });

  it('offers avatars at 1x and 2x through it', () => {
    expect(densitySrcSet('/media/img/av1-200x200.jpg', 48, resizer)).toBe(
      [48, 96].map((width, index) => `${resizedUrl(resizer, '/media/img/av1-200x200.jpg', width)} ${index + 1}x`).join(', '),
    );
  });

  it('leaves pictures on other origins to the path form or as they are', () => {
    expect(widthSrcSet('https://elsewhere.example.cn/a.jpg', resizer, 'card')).toBeUndefined();
    expect(widthSrcSet('//img.example.cn/a.jpg', resizer, 'card')).toBeUndefined();
    expect(widthSrcSet('/other/a.jpg', resizer, 'card')).toBeUndefined();
    expect(widthSrcSet(REFERENCE, { ...resizer, origins: [] }, 'card')).toBe(widthSrcSet(REFERENCE, IMAGES_OFF, 'card'));
  });

  it('draws ads and posters from one file through it, or the CMS’s own address where it does not resize them', () => {
    expect(adSrc('/media/img/ad1-1296x120.jpg', resizer, 120)).toBe(boxedUrl(resizer, '/media/img/ad1-1296x120.jpg', AD_WIDTH, 240));
    expect(oneWidthSrc('/media/img/v1-640x360.jpg', resizer, POSTER_WIDTH)).toBe(resizedUrl(resizer, '/media/img/v1-640x360.jpg', POSTER_WIDTH));
    expect(adSrc('https://elsewhere.example.cn/ad.jpg', resizer, 90)).toBe('https://elsewhere.example.cn/ad.jpg');
    expect(adSrc('/media/img/ad1-1296x120.jpg', IMAGES_OFF, 80)).toBe('/media/img/ad1-1296x120.jpg');
    expect(adSrc('', resizer, 80)).toBeUndefined();
    for (const slotHeight of [80, 90, 120]) {
      const boxed = adSrc('https://img.example.cn/ad.jpg', resizer, slotHeight)!;
      expect(parseResizedPath(boxed)).toEqual({ width: AD_WIDTH, height: 2 * slotHeight, src: 'https://img.example.cn/ad.jpg' });
    }
    expect(parseResizedPath(boxedUrl(resizer, 'https://img.example.cn/ad.jpg', AD_WIDTH, 240)!.replace('x240', 'x241'))).toBeNull();
    expect(boxedUrl(resizer, 'https://img.example.cn/ad.jpg', AD_WIDTH, 241)).toBeNull();
    const cdn: ImagePipeline = { kind: 'cdn', origins: ['https://img.example.cn'], template: '{src}?w={width}', format: 'webp' };
    expect(adSrc('https://img.example.cn/ad.jpg', cdn, 120)).toBe(`https://img.example.cn/ad.jpg?w=${AD_WIDTH}`);
    expect(RESIZER_WIDTHS.has(AD_WIDTH) && RESIZER_WIDTHS.has(POSTER_WIDTH)).toBe(true);
  });

  it('never names a width the resizer refuses, and the resizer reads no other address', () => {
    for (const widths of Object.values(SLOT_WIDTHS)) for (const width of widths) expect(RESIZER_WIDTHS.has(width)).toBe(true);
    for (const css of [24, 48, 64, 72, 80, 96]) for (const density of [1, 2, 3]) expect(RESIZER_WIDTHS.has(css * density)).toBe(true);
    const good = resizedUrl(resizer, 'https://img.example.cn/a.jpg', 480)!;
    expect(parseResizedPath(good)).not.toBeNull();
    expect(resizedUrl(resizer, 'https://img.example.cn/a.jpg', 481)).toBeNull();
    expect(parseResizedPath(good.replace('/480/', '/481/'))).toBeNull();
    expect(parseResizedPath(good.replace('/480/', '/0480/'))).toBeNull();
    expect(parseResizedPath(`${good}=`)).toBeNull();
    expect(parseResizedPath('/img/480/%2F%2Fevil')).toBeNull();
  });
});
