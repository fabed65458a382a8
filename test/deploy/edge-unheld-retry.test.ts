/**
 * Each instance's cache is its own (its L1; a Redis that came back empty holds nothing), so while the CMS fails
 * one instance may hold a page the other cannot render. The shipped VCL asks the other instance once when one
 * answers 503, so a page some instance holds reaches the reader; a page purged everywhere stays refused. Here two
 * portals with caches of their own (in-process, no Redis) share one upstream behind a real varnishd; only the
 * first holds the pages; the CMS then answers 500.
 */
import { describeWithVarnish } from '../support/requirements';
import { requestsTo, startTestPortal, type TestPortal } from '../support/portal';
import { waitUntil } from '../support/redis-server';
import { articlePaths } from '../support/upstream-data';
import { startVarnish, type TestVarnish } from '../support/varnish';

const PAGES = 6;

describeWithVarnish()('the edge asks the other instance when one holds nothing', () => {
  let holder: TestPortal;
  let empty: TestPortal;
  let varnish: TestVarnish;
  let paths: string[];

  beforeAll(async () => {
    holder = await startTestPortal();
    empty = await startTestPortal({ upstream: holder.upstream });
    const probes = [requestsTo(holder, '/readyz'), requestsTo(empty, '/readyz')];
    varnish = await startVarnish({ backends: [new URL(holder.url).host, new URL(empty.url).host] });
    // Both in rotation (the VCL's probes passed on each) before anything is asked through the edge.
    await waitUntil(async () => probes.every((count) => count() >= 3), 30_000, 'the edge to probe both portals');
    paths = await articlePaths(holder.upstream.url, PAGES);
    for (const path of paths) expect([path, (await fetch(`${holder.url}${path}`)).status]).toEqual([path, 200]);
  });
  afterEach(() => holder?.upstream.api.control.reset());
  afterAll(async () => {
    await varnish?.stop();
    await empty?.close();
    await holder?.close();
  });

  it('covers the class: the instance without the pages is asked too, and refuses them alone', async () => {
    expect(paths).toHaveLength(PAGES);
    holder.upstream.api.control.setFailures([{ path: '/', mode: 'http500' }]);
    const direct = await fetch(`${empty.url}${paths[0]}`);
    expect([direct.status, direct.headers.get('retry-after')]).toEqual([503, expect.stringMatching(/^\d+$/)]);
  });

  it('while the CMS fails, every page one instance holds is a 200 through the edge, whichever is asked first', async () => {
    holder.upstream.api.control.setFailures([{ path: '/', mode: 'http500' }]);
    const reachedEmpty = requestsTo(empty, '/detail/');
    const answers: Array<[string, number]> = [];
    for (const path of paths) {
      const res = await fetch(`${varnish.url}${path}`);
      await res.arrayBuffer();
      answers.push([path, res.status]);
    }
    expect(answers).toEqual(paths.map((path) => [path, 200]));
    // The round robin sent some of them to the instance that holds nothing first: the retry is what was tested.
    expect(reachedEmpty()).toBeGreaterThanOrEqual(1);
  });
});
