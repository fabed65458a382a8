import { articleSummary, category, greyMode, templateOf, topic } from '../../../server/upstream/normalise';
import { sanitiseArticleHtml, sanitiseArticleHtmlInSlices, SLICE_CHARS } from '../../../server/upstream/sanitise-html';
import type { RawCategory } from '../../../server/upstream/wire';

const item = { id: 1, catid: 2, title: '完整标题', list_title: '', description: '', thumb: '', adddate: 0, source: '' };

describe('normalisation (docs/product.md §3)', () => {
  it('replaces title with list_title when list_title is not empty', () => {
    expect(articleSummary(item).title).toBe('完整标题');
    expect(articleSummary({ ...item, list_title: '短标题' }).title).toBe('短标题');
    expect(articleSummary({ ...item, list_title: '   ' }).title).toBe('完整标题');
  });

  it('reads the template code from newfield and tells a missing field from a bad one', () => {
    const raw = (newfield: RawCategory['newfield']): RawCategory => ({
      catid: 1,
      catname: '栏目',
      parentid: 0,
      categoryDirectory: 'a',
      newfield,
      children: [],
    });
    expect(templateOf(raw([{ name: 'template', desc: '8' }]))).toBe(8);
    expect(category(raw([{ name: 'template', desc: '' }]))).toMatchObject({ template: null, templateField: true });
    expect(category(raw([{ name: 'template', desc: '9' }]))).toMatchObject({ template: null, templateField: true });
    expect(category(raw([{ name: 'other', desc: '1' }]))).toMatchObject({ template: null, templateField: false });
  });

  it('builds a topic jump from its extend JSON, tolerating bad JSON', () => {
    const raw = { id: 1, title: '专题', description: '', cover_image: 'https://img/1.jpg', adddate: 0 };
    expect(topic({ ...raw, extend: '{"switch_value_android":"https://x/1"}' })).toMatchObject({
      thumb: 'https://img/1.jpg',
      jump: { switch_value_android: 'https://x/1' },
    });
    expect(topic({ ...raw, extend: '{oops' }).jump).toEqual({ switch_value_android: '' });
  });

  it("maps the grey-mode flag: '1' whole layout, '2' home only, anything else off", () => {
    expect([greyMode('1'), greyMode('2'), greyMode('0'), greyMode(null)]).toEqual(['layout', 'home', 'off', 'off']);
  });
});

describe('sanitiseArticleHtml', () => {
  it('keeps article markup and drops scripts, handlers, styles, frames and javascript: URLs', () => {
    const html = sanitiseArticleHtml(
      '<p style="color:red" onclick="x()">正文<strong>重点</strong></p><figure><img src="https://img/a.jpg" onerror="y()" width="600" height="400" alt="图"><figcaption>说明</figcaption></figure>' +
        '<script>alert(1)</script><iframe src="https://evil"></iframe><a href="javascript:alert(1)">坏链接</a><a href="https://ok.example/">好链接</a>',
    );
    expect(html).toContain('<p>正文<strong>重点</strong></p>');
    expect(html).toContain('<img src="https://img/a.jpg" width="600" height="400" alt="图" loading="lazy" decoding="async" />');
    expect(html).toContain('<a href="https://ok.example/" target="_blank" rel="noopener noreferrer nofollow">好链接</a>');
    expect(html).not.toMatch(/script|onclick|onerror|style=|iframe|javascript:/);
  });
});

describe('heading levels of a body: its top heading is an h2 (the title is the page h1)', () => {
  it.each([
    [
      'sections written as h3 and h4',
      '<h3>专家解读</h3><p>一</p><h4>细节</h4><p>二</p><h3>背景</h3>',
      '<h2>专家解读</h2><p>一</p><h3>细节</h3><p>二</p><h2>背景</h2>',
    ],
    ['only h4', '<p>导语</p><h4>小标题</h4>', '<p>导语</p><h2>小标题</h2>'],
    ['an h1 from the CMS, dropped to its text', '<h1>重复标题</h1><h3>一节</h3>', '重复标题<h2>一节</h2>'],
    ['already from h2', '<h2>一</h2><h4>二</h4>', '<h2>一</h2><h4>二</h4>'],
    ['no headings', '<p>正文</p>', '<p>正文</p>'],
    ['heading-like text stays text', '<p>&lt;h3&gt;不是标题&lt;/h3&gt;</p><h4>标题</h4>', '<p>&lt;h3&gt;不是标题&lt;/h3&gt;</p><h2>标题</h2>'],
  ])('%s', async (_label, body, expected) => {
    expect(sanitiseArticleHtml(body)).toBe(expected);
    expect(await sanitiseArticleHtmlInSlices(body)).toBe(expected);
  });

  it('judges the whole of a long body, not each slice', async () => {
    const paragraphs = '<p>正文</p>'.repeat(Math.ceil((SLICE_CHARS * 2) / 12));
    const body = `<h3>一节</h3>${paragraphs}<h2>二节</h2>${paragraphs}`;
    const sliced = await sanitiseArticleHtmlInSlices(body);
    expect(sliced).toBe(sanitiseArticleHtml(body));
    expect(sliced.startsWith('<h3>一节</h3>')).toBe(true);
  });
});

describe('sanitiseArticleHtmlInSlices', () => {
  /** Paragraphs, nested blocks, tables, comments, unsafe markup and implied closes, repeated past many slices. */
  const BLOCK =
    '<p>正文<strong>重点</strong><a href="https://ok.example/">好链接</a></p><!-- 编者注 </p> -->' +
    '<blockquote><p>引用一</p><p>引用二<script>alert(1)</script></p></blockquote>' +
    '<table><tr><td colspan="2" onclick="x()">表格</td></tr></table><p>未闭合段落<p>下一段' +
    '<img src="https://img/a.jpg" onerror="y()"><a href="javascript:alert(1)">坏链接</a><iframe src="https://evil"></iframe>\n';

  it.each([
    ['a body of many slices', BLOCK.repeat(Math.ceil((SLICE_CHARS * 6) / BLOCK.length))],
    ['a short body', BLOCK],
    ['one element longer than a slice', `<div>${BLOCK.repeat(Math.ceil((SLICE_CHARS * 2) / BLOCK.length))}</div>`],
    ['top-level text without tags', '纯文本 '.repeat(SLICE_CHARS)],
  ])('gives the same result as one pass: %s', async (_label, body) => {
    const sliced = await sanitiseArticleHtmlInSlices(body);
    expect(sliced).toBe(sanitiseArticleHtml(body));
    expect(sliced).not.toMatch(/<script|onclick|onerror|iframe|javascript:/);
  });

  it('lets other work run between slices of a long body', async () => {
    const body = BLOCK.repeat(Math.ceil((SLICE_CHARS * 8) / BLOCK.length));
    let turns = 0;
    let done = false;
    const tick = (): void => {
      if (done) return;
      turns += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    await sanitiseArticleHtmlInSlices(body);
    done = true;
    // Each slice yields a turn: at least one per slice of the parse and of the sanitising.
    expect(turns).toBeGreaterThanOrEqual(8);
  });
});
