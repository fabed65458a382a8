import { AUTOPLAY_DELAYS_MS, autoplayDelay, nextPageIndex } from '../../shared/carousel';

describe('carousel autoplay delay', () => {
  it('keeps a delay that was set', () => {
    expect(autoplayDelay(3000, () => 0.9)).toBe(3000);
  });

  it('draws 5000/6000/7000/8000 ms otherwise, each reachable', () => {
    expect([0, 0.25, 0.5, 0.99999].map((r) => autoplayDelay(undefined, () => r))).toEqual([5000, 6000, 7000, 8000]);
    expect(autoplayDelay(0, () => 0)).toBe(5000);
    for (let i = 0; i < 50; i += 1) expect(AUTOPLAY_DELAYS_MS).toContain(autoplayDelay(undefined));
  });
});

describe('column paging', () => {
  it('goes to the next page and wraps to 1 after the last', () => {
    expect(nextPageIndex(1, 10, 4)).toBe(2);
    expect(nextPageIndex(2, 10, 4)).toBe(3);
    expect(nextPageIndex(3, 10, 4)).toBe(1);
    expect(nextPageIndex(1, 4, 4)).toBe(1);
    expect(nextPageIndex(1, 0, 4)).toBe(1);
  });
});
