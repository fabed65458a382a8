import { canonicalPathByParse, canonicalPathOf, classifyPath } from '../../shared/canonical-path';
import { generatedPaths } from '../support/generated-paths';
import { findRoute } from '../../shared/routes';

describe('canonicalPathOf', () => {
  it.each([
    ['/', '/'],
    ['//', '/'],
    ['/about', '/about'],
    ['/about/', '/about'],
    ['/about//', '/about'],
    ['//about', '/about'],
    ['/detail/2728/33722/', '/detail/2728/33722'],
    ['/detail//2728///33722', '/detail/2728/33722'],
    ['/detail/%32788/33722', '/detail/2788/33722'],
    ['/detail/2788/%33%33%37%32%32', '/detail/2788/33722'],
    ['/api/../search/5paw6Ze7/1', '/search/5paw6Ze7/1'],
    ['/assets/../about', '/about'],
    ['/x/../detail/2728/33718', '/detail/2728/33718'],
    ['/x/%2e%2e/detail/2728/33718', '/detail/2728/33718'],
    ['/x/%2E%2e/detail/2728/33718', '/detail/2728/33718'],
    ['/./about', '/about'],
    ['/a/./b/.', '/a/b'],
    ['/..', '/'],
    ['/%2e%2e/%2e%2e/about', '/about'],
    ['/x/%252e%252e/about', '/x/%252e%252e/about'],
    ['/a\\b', '/a/b'],
    ['/\\\\evil.example', '/evil.example'],
    ['/a%2fb', '/a%2Fb'],
    ['/a%2Fb', '/a%2Fb'],
    ['/tag/%e4%b8%ad', '/tag/%E4%B8%AD'],
    ['/tag/中文', '/tag/%E4%B8%AD%E6%96%87'],
    ['/a%7eb', '/a~b'],
    ['/a%2Bb', '/a+b'],
    ['/a%3Fb', '/a%3Fb'],
    ['/a%23b', '/a%23b'],
    ['/a%25b', '/a%25b'],
    ['/a b', '/a%20b'],
    ['/About', '/About'],
  ])('%s → %s', (spelling, canonical) => {
    expect(canonicalPathOf(spelling)).toBe(canonical);
  });

  it.each(['/a%zz', '/a%', '/a%2', '/a\u0000b', '/a\nb', 'about', '', 'http://evil.example/'])('%j has no canonical form', (spelling) => {
    expect(canonicalPathOf(spelling)).toBeNull();
    expect(classifyPath(spelling)).toEqual({ kind: 'invalid' });
  });

  it('is a fixed point: the canonical form of a canonical path is itself', () => {
    const spellings = ['/about/', '/x/../a//b/', '/%2e%2e/%32', '/tag/%e4%b8%ad/', '/a%2f%2e%2e/b', '/%2e%2E/%2e/x', '/a/%2e%2e%2f..'];
    for (const spelling of spellings) {
      const once = canonicalPathOf(spelling);
      expect(once).not.toBeNull();
      expect(canonicalPathOf(once ?? '')).toBe(once);
      expect(classifyPath(once ?? '')).toEqual({ kind: 'canonical' });
    }
  });

  it('never starts with two slashes or a backslash, so it is always a path of this origin', () => {
    const leads = ['/', '/.', '/%2e', '/a/..', '/x/%2e%2e', '\\', '/\\'];
    const rests = ['/evil.example', '//evil.example', '\\\\evil.example', '/./evil.example', '/%2e/evil.example'];
    for (const lead of leads) {
      for (const rest of rests) {
        const canonical = canonicalPathOf(`/${lead}${rest}`);
        expect(canonical).toMatch(/^\/(?![/\\])/);
        expect(new URL(canonical ?? '', 'https://www.qnnews.cn').host).toBe('www.qnnews.cn');
      }
    }
  });

  it('every spelling of a page matches the same route with the same parameters as its canonical form', () => {
    const spellings = ['/detail/%32728/33718', '/detail/2728/33718/', '/x/../detail/2728/33718', '/detail//2728/33718'];
    const canonical = findRoute('/detail/2728/33718');
    for (const spelling of spellings) expect(findRoute(canonicalPathOf(spelling) ?? '')).toEqual(canonical);
  });
});

describe('the plain check before the full parse', () => {
  it('gives what the full parse gives on every generated path, canonical or not', () => {
    const paths = generatedPaths(20000, 20261124);
    const differing = paths.filter((path) => canonicalPathOf(path) !== canonicalPathByParse(path));
    expect(differing).toEqual([]);
    // Both sides of the check are exercised: many paths are canonical as they are, many are not.
    const canonical = paths.filter((path) => canonicalPathByParse(path) === path).length;
    expect(canonical).toBeGreaterThan(paths.length / 5);
    expect(canonical).toBeLessThan(paths.length * 0.8);
  });

  it.each(['/home', '/detail/2728/33727', '/list/2728/1', "/a/.b/..c/b.'", '/search/5paw6Ze7/1'])('%s is canonical as it is', (path) => {
    expect(classifyPath(path)).toEqual({ kind: 'canonical' });
    expect(canonicalPathByParse(path)).toBe(path);
  });
});
