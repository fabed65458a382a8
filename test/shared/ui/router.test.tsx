/**
 * The portal's router (shared/ui/router.tsx) on the server side, and the route patterns it replaced
 * React Router's matching for: links are plain anchors, the location is the page's, patterns match as before.
 */
import { renderToString } from 'react-dom/server';
import { Link, StaticRouter, parsePath, useLocation } from '../../../shared/ui/router';
import { compilePattern, matchRoute } from '../../../shared/routes';

function Where() {
  const location = useLocation();
  return <span>{`${location.pathname}|${location.search}|${location.hash}`}</span>;
}

describe('the portal router', () => {
  it('splits a path into pathname, search and hash', () => {
    expect(parsePath('/search/5YyX/2?page=3#results', 'k')).toEqual({ pathname: '/search/5YyX/2', search: '?page=3', hash: '#results', key: 'k' });
    expect(parsePath('/about#contact', 'k')).toEqual({ pathname: '/about', search: '', hash: '#contact', key: 'k' });
    expect(parsePath('/', 'k')).toEqual({ pathname: '/', search: '', hash: '', key: 'k' });
  });

  it('renders a link as a plain anchor with only the attributes given, and the location of the page rendered', () => {
    const html = renderToString(
      <StaticRouter location="/V1/2728?page=2">
        <Link to="/detail/2728/33727" className="title" rel="next">
          标题
        </Link>
        <Where />
      </StaticRouter>,
    );
    expect(html).toBe('<a href="/detail/2728/33727" class="title" rel="next">标题</a><span>/V1/2728|?page=2|</span>');
  });
});

describe('route patterns', () => {
  it('match whole pathnames, with optional params, trailing slashes and case as React Router did', () => {
    const { matcher } = compilePattern('/detail/:catid?/:id?');
    for (const path of ['/detail', '/detail/', '/detail/1', '/detail/1/2', '/detail/1/2/']) expect(matcher.test(path)).toBe(true);
    for (const path of ['/detail/1/2/3', '/Detail/1/2', '/detailx/1', '/x/detail/1']) expect(matcher.test(path)).toBe(false);
    expect(compilePattern('/:menu/:sub/V1/:id').params).toEqual([
      { name: 'menu', optional: false },
      { name: 'sub', optional: false },
      { name: 'id', optional: false },
    ]);
  });

  it('decode params and check their rules', () => {
    expect(matchRoute('/detail/2728/33727')).toMatchObject({ kind: 'page', route: { id: 'detail' }, params: { catid: '2728', id: '33727' } });
    expect(matchRoute('/shizheng/guonei/V1/11')).toMatchObject({ kind: 'page', params: { menu: 'shizheng', sub: 'guonei', id: '11' } });
    expect(matchRoute('/detail/12/abc')).toEqual({ kind: 'not-found' });
    expect(matchRoute('/tagDetail/5/%E6%B3%95%E6%B2%BB')).toMatchObject({ kind: 'page', params: { id: '5', title: '法治' } });
    expect(matchRoute('/tagDetail/5/%E6%B3')).toEqual({ kind: 'not-found' });
    expect(matchRoute('/V1')).toEqual({ kind: 'redirect', location: '/' });
  });
});
