import { neighboursOf } from './loader';
import type { ArticleSummary } from '../../../shared/types/entities';

const item = (id: number): ArticleSummary => ({
  id,
  catid: 7,
  title: `t${id}`,
  fullTitle: `t${id} full`,
  description: '',
  thumb: '',
  adddate: 1000 + id,
  source: '',
});
const list = [item(1), item(2), item(3)];

describe('reading mode neighbours', () => {
  it('has only next for the first and only previous for the last', () => {
    expect(neighboursOf(list, 1)).toEqual({ previous: null, next: { catid: 7, id: 2, title: 't2', adddate: 1002 } });
    expect(neighboursOf(list, 3)).toEqual({ previous: { catid: 7, id: 2, title: 't2', adddate: 1002 }, next: null });
    expect(neighboursOf(list, 2).previous?.id).toBe(1);
    expect(neighboursOf(list, 2).next?.id).toBe(3);
  });

  it('has neither for an article outside the list', () => {
    expect(neighboursOf(list, 99)).toEqual({ previous: null, next: null });
  });
});
