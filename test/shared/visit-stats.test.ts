import { parseVisitStatsIds, trackPageView, visitStatsScriptUrl } from '../../shared/visit-stats';

describe('visit statistics', () => {
  it('reads host=id pairs, trimmed, hosts lower-cased', () => {
    const parsed = parseVisitStatsIds(' WWW.qnnews.cn = abc123 ,bj.qnnews.cn=Def456,');
    expect('ids' in parsed && [...parsed.ids]).toEqual([
      ['www.qnnews.cn', 'abc123'],
      ['bj.qnnews.cn', 'Def456'],
    ]);
    expect(parseVisitStatsIds('')).toEqual({ ids: new Map() });
  });

  it('names the first malformed pair', () => {
    expect(parseVisitStatsIds('www.qnnews.cn=ok1,bj.qnnews.cn')).toEqual({ bad: 'bj.qnnews.cn' });
    expect(parseVisitStatsIds('www.qnnews.cn=a=b')).toEqual({ bad: 'www.qnnews.cn=a=b' });
    expect(parseVisitStatsIds('www.qnnews.cn=<script>')).toEqual({ bad: 'www.qnnews.cn=<script>' });
  });

  it('puts the id into the script URL template', () => {
    expect(visitStatsScriptUrl('https://hm.baidu.com/hm.js?{id}', 'abc123')).toBe('https://hm.baidu.com/hm.js?abc123');
  });

  it('reports a client-side navigation to the counter queue only when it is there', () => {
    const queue: unknown[] = [];
    expect(trackPageView('/detail/2727/5', { _hmt: queue })).toBe(true);
    expect(queue).toEqual([['_trackPageview', '/detail/2727/5']]);
    expect(trackPageView('/', {})).toBe(false);
  });
});
