import { cacheKey } from '../../../server/cache/keys';
import { normaliseQuery } from '../../../shared/page-address';

describe('cache keys', () => {
  it('are {prefix}:{build}:{kind}:{site}:{rest}', () => {
    expect(cacheKey({ prefix: 'portal', buildId: 'abc' }, 'page', 3, '/detail/1/2')).toBe('portal:abc:page:3:/detail/1/2');
  });

  it('keep only allowed query params, sorted and encoded one way', () => {
    const search = new URLSearchParams('utm_source=x&page=2&b=%E4%B8%AD&spm=1');
    expect(normaliseQuery(search, ['page', 'b'])).toBe('?b=%E4%B8%AD&page=2');
    expect(normaliseQuery(new URLSearchParams('page=2&b=%E4%B8%AD'), ['b', 'page'])).toBe('?b=%E4%B8%AD&page=2');
    expect(normaliseQuery(search, [])).toBe('');
  });
});
