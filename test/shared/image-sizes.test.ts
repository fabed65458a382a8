import { densitySrcSet, IMAGE_WIDTHS, widthSrcSet } from '../../shared/image-sizes';
import { sanitiseArticleHtml } from '../../server/upstream/sanitise-html';

const REFERENCE = 'http://127.0.0.1:4000/media/img/a33722f1-800x1067.jpg';

describe('srcset from a picture whose path names its size', () => {
  it('offers every width of the ladder under the picture, then the picture itself, at its aspect', () => {
    expect(widthSrcSet(REFERENCE)).toBe(
      [
        'http://127.0.0.1:4000/media/img/a33722f1-160x213.jpg 160w',
        'http://127.0.0.1:4000/media/img/a33722f1-240x320.jpg 240w',
        'http://127.0.0.1:4000/media/img/a33722f1-320x427.jpg 320w',
        'http://127.0.0.1:4000/media/img/a33722f1-480x640.jpg 480w',
        'http://127.0.0.1:4000/media/img/a33722f1-640x854.jpg 640w',
        `${REFERENCE} 800w`,
      ].join(', '),
    );
    expect(widthSrcSet('/media/img/skin1-1920x200.jpg')?.split(', ')).toHaveLength(IMAGE_WIDTHS.length);
  });

  it('offers a fixed-width picture at 1x, 2x and 3x, never past its own size', () => {
    expect(densitySrcSet('/media/img/av1-200x200.jpg', 48)).toBe('/media/img/av1-48x48.jpg 1x, /media/img/av1-96x96.jpg 2x, /media/img/av1-144x144.jpg 3x');
    expect(densitySrcSet('/media/img/av1-200x200.jpg', 96)).toBe('/media/img/av1-96x96.jpg 1x, /media/img/av1-192x192.jpg 2x, /media/img/av1-200x200.jpg 3x');
    expect(densitySrcSet('/media/img/av1-120x120.jpg', 96)).toBe('/media/img/av1-96x96.jpg 1x, /media/img/av1-120x120.jpg 2x');
  });

  it.each([
    'https://cms.example.cn/uploads/2026/11/photo.jpg',
    '/media/img/a1-800x600.svg',
    '/media/img/A1-800x600.jpg',
    '/media/img/a1-800x600.jpg?x=1',
    '',
    undefined,
  ])('offers nothing for %p, whose size cannot be asked for', (src) => {
    expect(widthSrcSet(src)).toBeUndefined();
    expect(densitySrcSet(src, 48)).toBeUndefined();
  });
});

describe('article body pictures', () => {
  it('get the column-sized srcset when their size can be asked for, and lose the CMS’s own', () => {
    const html = sanitiseArticleHtml(
      `<p><img src="${REFERENCE}" srcset="https://cms.example.cn/big.jpg 2x" sizes="100vw" width="800" height="1067" alt="图"></p>`,
    );
    expect(html).toContain(`srcset="${widthSrcSet(REFERENCE)}"`);
    expect(html).toContain('sizes="(max-width: 767px) calc(100vw - 32px), 808px"');
    expect(html).not.toContain('cms.example.cn');
  });

  it('are left as they are otherwise', () => {
    const html = sanitiseArticleHtml('<p><img src="https://cms.example.cn/a.jpg" srcset="https://cms.example.cn/b.jpg 2x" alt="图"></p>');
    expect(html).toBe('<p><img src="https://cms.example.cn/a.jpg" alt="图" loading="lazy" decoding="async" /></p>');
  });
});
