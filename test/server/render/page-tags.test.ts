/**
 * A page's tags (page-context.ts pageTags): every tag its calls recorded, its site and its kind, each once. A store
 * sends each tag's index commands (SADD and two PEXPIRE), so a tag listed twice cost them twice (docs/capacity.md).
 */
import { MAIN_SITE } from '../../../shared/sites';
import { pageTags } from '../../../server/render/page-context';
import { CallRecorder } from '../../../server/upstream/content-service';

describe('pageTags', () => {
  it("names the site once when the site's own calls already carry it", () => {
    const recorder = new CallRecorder();
    recorder.record('portal:b:data:_:site_info:0', 'HIT', [`site:${MAIN_SITE.id}`, 'data:site']);
    recorder.record('portal:b:data:_:show:2728:33727', 'HIT', ['article:33727', 'data:article']);
    const tags = pageTags(recorder, MAIN_SITE, 'detail');
    expect([...tags].sort()).toEqual(['article:33727', 'data:article', 'data:site', 'page:detail', `site:${MAIN_SITE.id}`]);
  });

  it('names the site and the kind of a page whose calls did not', () => {
    const recorder = new CallRecorder();
    recorder.record('portal:b:data:_:menu', 'HIT', ['menu', 'data:menu']);
    expect([...pageTags(recorder, MAIN_SITE, 'home')].sort()).toEqual(['data:menu', 'menu', 'page:home', `site:${MAIN_SITE.id}`]);
  });
});
