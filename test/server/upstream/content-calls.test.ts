/**
 * The content calls as data (server/upstream/content-calls/): each module only describes its calls, so what a
 * call is cached under, what it depends on and how its failure counts can be read off one by one, without a
 * cache or an upstream.
 */
import type { ContentApi } from '../../../shared/content-api';
import type { Call, CallSpec } from '../../../server/upstream/content-calls/call';
import { articleCalls } from '../../../server/upstream/content-calls/articles';
import { decorationCalls } from '../../../server/upstream/content-calls/decoration';
import { mediaCalls } from '../../../server/upstream/content-calls/media';
import { navigationCalls } from '../../../server/upstream/content-calls/navigation';
import { topicCalls } from '../../../server/upstream/content-calls/topics';

/** A `call` that answers every call with its `empty` and keeps the spec it was given. */
function describing(): { call: Call; specs: Array<CallSpec<unknown, unknown>> } {
  const specs: Array<CallSpec<unknown, unknown>> = [];
  const call: Call = <Raw, T>(spec: CallSpec<Raw, T>) => {
    specs.push(spec as CallSpec<unknown, unknown>);
    return Promise.resolve(spec.empty);
  };
  return { call, specs };
}

describe('content calls', () => {
  it('describe every method of the ContentApi exactly once between them', () => {
    const { call } = describing();
    const modules = [navigationCalls(call), articleCalls(call), decorationCalls(call), topicCalls(call), mediaCalls(call)];
    const names = modules.flatMap((api) => Object.keys(api)).sort();
    expect(new Set(names).size).toBe(names.length);
    const whole: ContentApi = Object.assign({}, ...modules) as ContentApi;
    expect(Object.keys(whole).sort()).toEqual(names);
  });

  it('mark every call around the page (ads, site SEO, grey mode) as decoration, so its failure never makes a 503', async () => {
    const { call, specs } = describing();
    const api = decorationCalls(call);
    await Promise.all([api.adGroups(3281), api.homeAdSlots(3281), api.siteInfo(3), api.greyMode()]);
    expect(specs.map((spec) => [spec.request.call, spec.decoration])).toEqual([
      ['ad_top', true],
      ['ad_list_by_column', true],
      ['site_info', true],
      ['grey_mode', true],
    ]);
  });

  it('make the article by its category a required call tagged with the article and its category', async () => {
    const { call, specs } = describing();
    expect(await articleCalls(call).article(2728, 33727)).toBeNull();
    expect(specs[0]).toMatchObject({ family: 'article', key: 'show:2728:33727', tags: ['article:33727', 'cat:2728'], required: true });
    expect(specs[0]!.request).toEqual({ method: 'GET', path: '/show/2728-33727.html', call: 'show' });
  });

  it('key searches by their encoded words, so two queries never share an entry', async () => {
    const { call, specs } = describing();
    const api = articleCalls(call);
    await api.search('青年 网络', 1, 1, 10);
    await api.search('青年:网络', 1, 1, 10);
    expect(specs.map((spec) => spec.key)).toEqual([`search:1:1:10:${encodeURIComponent('青年 网络')}`, `search:1:1:10:${encodeURIComponent('青年:网络')}`]);
  });

  it('give a page of topics and the topic list from one call', async () => {
    const { call, specs } = describing();
    const api = topicCalls(call);
    expect(await api.topics(1, 8)).toEqual([]);
    expect(await api.topicPage(1, 8)).toEqual({ list: [], total: 0 });
    expect(new Set(specs.map((spec) => spec.key))).toEqual(new Set(['theme_list:1:8']));
  });
});
