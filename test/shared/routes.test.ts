import { findRoute, routeTable, href, type ParamRule } from '../../shared/routes';
import { matchRoutes } from 'react-router-dom';
import { createPortalRoutes } from '../../shared/ui/routes';

function pageOf(path: string): { id: string; name: string | undefined; params: Record<string, string | undefined> } {
  const match = findRoute(path);
  if (match.kind !== 'page') throw new Error(`${path} did not match a page: ${JSON.stringify(match)}`);
  return { id: match.route.id, name: match.route.name, params: { ...match.params } };
}

describe('route table', () => {
  it('matches every docs/product.md §2 route to the route it names', () => {
    const cases: Array<[string, string]> = [
      ['/', 'home'],
      ['/home', 'home-alias'],
      ['/about', 'about'],
      ['/contribute', 'contribute'],
      ['/electronic', 'electronic'],
      ['/hd', 'hd'],
      ['/headlineNews', 'headlineNews'],
      ['/license', 'license'],
      ['/moveInto', 'moveInto'],
      ['/newspaperBoard', 'newspaperBoard'],
      ['/personalCenter', 'personalCenter'],
      ['/poster', 'poster'],
      ['/seekingReport', 'seekingReport'],
      ['/siteMap', 'siteMap'],
      ['/specialColumn', 'specialColumn'],
      ['/liveStreamDetail/7', 'liveStreamDetail-id'],
      ['/newsTrack/7', 'newsTrack-id'],
      ['/readNewspapers_v2/7', 'readNewspapers_v2-id'],
      ['/readNewspapers/7', 'readNewspapers-id'],
      ['/shike/2839', 'shike-id'],
      ['/specialColumnDetail/7', 'specialColumnDetail-id'],
      ['/topic/7', 'topic-id'],
      ['/topicDetail/7', 'topicDetail-id'],
      ['/V1/7', 'V1-id'],
      ['/V2/7', 'V2-id'],
      ['/videoAlbum/7', 'videoAlbum-id'],
      ['/detail/12/34', 'detail'],
      ['/detailReading/12/34', 'detailReading'],
      ['/search', 'search'],
      ['/search/5paw6Ze7', 'search'],
      ['/search/5paw6Ze7/2', 'search'],
      ['/tagDetail/9', 'tagDetail'],
      ['/tagDetail/9/%E9%9D%92%E5%B9%B4', 'tagDetail'],
      ['/video/12/34', 'video'],
      ['/video/34', 'video-id'],
      ['/videoLive/12/34', 'videoLive'],
      ['/videoLive/34', 'videoLive-id'],
      ['/shizheng/guonei/topicDetail/5', 'menu-sub-topicDetail-id'],
      ['/shizheng/topicDetail/5', 'menu-topicDetail-id'],
      ['/shizheng/guonei/V1/5', 'menu-sub-V1-id'],
      ['/shizheng/V2/5', 'menu-V2-id'],
    ];
    for (const [path, id] of cases) expect([path, pageOf(path).id]).toEqual([path, id]);
  });

  it('reads params and decodes them', () => {
    expect(pageOf('/detail/12/34').params).toEqual({ catid: '12', id: '34' });
    expect(pageOf('/tagDetail/9/%E9%9D%92%E5%B9%B4').params).toMatchObject({ id: '9', title: '青年' });
    expect(pageOf('/shizheng/guonei/V1/5').params).toEqual({ menu: 'shizheng', sub: 'guonei', id: '5' });
  });

  it.each([
    '/detail/12/abc',
    '/detail/abc',
    '/V1/-1',
    '/V1/+1',
    '/V1/0',
    '/V1/007',
    '/topic/1e3',
    '/topic/1.5',
    '/topic/99999999999',
    '/topic/2147483648',
    '/search/5paw6Ze7/3',
    '/search/%ZZ',
    '/tagDetail/9/%E0%A4%A',
    '/nope',
    '/about/extra',
    '/Home',
    '/a/b/c/V1/1',
    '/%2e%2e/V1/1',
    // React Router ranks the detail route first (as the browser does): its catid breaks its rule, and no other route is tried.
    '/detail/V1/12',
  ])('sends %s to the 404 page', (path) => {
    expect(findRoute(path)).toEqual({ kind: 'not-found' });
  });

  it('redirects a matched route without a name to /', () => {
    const paths = ['/V1', '/topic', '/shike', '/videoAlbum', '/video', '/liveStreamDetail', '/detail', '/detail/', '/detailReading', '/tagDetail'];
    // The same route with its id left out after other params: an article's catid, a menu and sub-category.
    paths.push('/detail/12', '/detailReading/12/', '/xinwen/V1', '/xinwen/guonei/V2', '/zhuanti/xiangcun/topicDetail', '/zhuanti/topicDetail');
    for (const path of paths) {
      expect([path, findRoute(path)]).toEqual([path, { kind: 'redirect', location: '/' }]);
    }
  });

  it('derives the bare routes from the routes: every page route without its id, unless another page has that shape', () => {
    const bare = routeTable()
      .filter((route) => route.page === undefined)
      .map((route) => route.path)
      .sort();
    expect(bare).toEqual(
      [
        '/detail/:catid?',
        '/detailReading/:catid?',
        '/liveStreamDetail',
        '/newsTrack',
        '/readNewspapers_v2',
        '/readNewspapers',
        '/shike',
        '/specialColumnDetail',
        '/tagDetail',
        '/topic',
        '/topicDetail',
        '/V1',
        '/V2',
        '/videoAlbum',
        '/video',
        '/videoLive',
        '/:menu/:sub/V1',
        '/:menu/V1',
        '/:menu/:sub/V2',
        '/:menu/V2',
        '/:menu/:sub/topicDetail',
        '/:menu/topicDetail',
      ].sort(),
    );
    // A route without an id has a page at its root: the empty search.
    expect(pageOf('/search').id).toBe('search');
    // `/video/{catid}` and `/videoLive/{catid}` have the shape of a page of their own: a video or live by its id.
    expect(pageOf('/video/12').id).toBe('video-id');
    expect(pageOf('/videoLive/12').id).toBe('videoLive-id');
  });

  it('redirects the bare path of every page route with an id home: its path up to the id, each param before it given or not', () => {
    const sample: Record<ParamRule, string> = { id: '12', slug: 'xinwen', searchWord: '5paw6Ze7', searchType: '1', text: 't' };
    const answers: Array<[string, string, string]> = [];
    for (const route of routeTable()) {
      const at = /\/:id\??(?=\/|$)/.exec(route.path);
      if (route.page === undefined || !at) continue;
      // Each param before the id given, and each optional one also left out.
      let paths = [''];
      for (const segment of route.path.slice(1, at.index).split('/')) {
        const param = /^:([\w-]+)(\?)?$/.exec(segment);
        const value = param ? sample[route.params[param[1]!]!] : segment;
        paths = paths.flatMap((path) => (param?.[2] ? [`${path}/${value}`, path] : [`${path}/${value}`]));
      }
      for (const path of paths) {
        const match = findRoute(path);
        // Another page's own path (a video by its id): that page's, not a bare one.
        if (match.kind === 'page' && match.params.id !== undefined) continue;
        answers.push([route.id, path, match.kind === 'redirect' ? match.location : match.kind]);
      }
    }
    expect(answers.map(([, path]) => path)).toEqual(expect.arrayContaining(['/V1', '/detail', '/detail/12', '/tagDetail', '/xinwen/V1', '/xinwen/xinwen/V2']));
    expect(answers.filter(([, , answer]) => answer !== '/')).toEqual([]);
  });

  it('tries routes that start with a fixed segment before those that start with a parameter, whatever the list order', () => {
    const ranks = routeTable().map((route) => (route.page === undefined ? 2 : 0) + (route.path.startsWith('/:') ? 1 : 0));
    expect(ranks).toEqual([...ranks].sort());
    // /{menu}/V1/{id} would take these if it came first.
    expect(pageOf('/search/V1/1')).toMatchObject({ id: 'search', params: { word: 'V1', type: '1' } });
    expect(pageOf('/xinwen/V1/3')).toMatchObject({ id: 'menu-V1-id', params: { menu: 'xinwen', id: '3' } });
  });

  it('gives every named route a unique id and every param a rule', () => {
    const ids = routeTable().map((route) => route.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const route of routeTable()) {
      const patternParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      expect([route.id, patternParams.sort()]).toEqual([route.id, Object.keys(route.params).sort()]);
    }
  });

  it('builds links that the table matches', () => {
    expect(pageOf(href.detail(12, 34)).id).toBe('detail');
    expect(pageOf(href.detailReading(12, 34)).id).toBe('detailReading');
    expect(pageOf(href.search('5paw6Ze7', 1)).id).toBe('search');
  });
});

describe('findRoute remembers what it found', () => {
  it('answers a path it has seen with the same match, whose params cannot be changed', () => {
    const first = findRoute('/detail/2728/33727');
    expect(findRoute('/detail/2728/33727')).toBe(first);
    if (first.kind !== 'page') throw new Error('the detail path did not match a page');
    expect(Object.isFrozen(first.params)).toBe(true);
    expect(first.params).toEqual({ catid: '2728', id: '33727' });
  });

  it('matches long paths without keeping them, with the same answer each time', () => {
    const long = `/tagDetail/12/${'长'.repeat(300)}`;
    const first = findRoute(long);
    const second = findRoute(long);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });

  it('keeps answering correctly after thousands of distinct paths', () => {
    for (let id = 1; id <= 5000; id += 1) expect(findRoute(`/detail/2728/${id}`).kind).toBe('page');
    expect(findRoute('/no/such/page').kind).toBe('not-found');
    expect(findRoute('/detail/2728/33727').kind).toBe('page');
  });
});

describe('findRoute and the browser router agree', () => {
  /** Every route's path with each param given a sample (valid or not) or left out, plus a trailing slash and an extra segment. */
  function pathsOfTable(): string[] {
    const samples = ['12', 'abc', 'xinwen', '5paw6Ze7', '2', '%E9%9D%92', 'V1', 'Detail'];
    const paths = new Set<string>(['/', '/Home', '/nope']);
    for (const route of routeTable()) {
      let prefixes = [''];
      for (const segment of route.path.split('/').slice(1)) {
        const optional = segment.endsWith('?');
        prefixes = prefixes.flatMap((prefix) => {
          if (!segment.startsWith(':')) return [`${prefix}/${segment}`];
          return [...samples.map((sample) => `${prefix}/${sample}`), ...(optional ? [prefix] : [])];
        });
        for (const prefix of prefixes)
          paths
            .add(prefix || '/')
            .add(`${prefix}/`)
            .add(`${prefix}/extra`);
      }
    }
    return [...paths];
  }

  it('gives each path the page route React Router matches in the browser, or none when its params break their rules', () => {
    const browserRoutes = createPortalRoutes(() => () => null);
    const paths = pathsOfTable();
    expect(paths.length).toBeGreaterThan(1000);
    const disagreements = paths.flatMap((path) => {
      const leaf = matchRoutes(browserRoutes, path)?.at(-1)?.route.id;
      const match = findRoute(path);
      // The browser asks the server for a path whose params it cannot check: the server's answer is then a 404 or a redirect.
      if (match.kind !== 'page') return [];
      return leaf === match.route.id ? [] : [`${path}: browser ${leaf}, server ${match.route.id}`];
    });
    expect(disagreements).toEqual([]);
  });
});
