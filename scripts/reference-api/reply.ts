/**
 * The CMS envelope and its codes, apart from the route table so every route module can use them without import
 * cycles. Every answer is HTTP 200 with {code, msg, data}: 0 success, 40004 not found, 40000 bad parameters.
 */
import type { Envelope } from '../../shared/types/envelope';
import { json, type Reply } from './http';

export const CODE_OK = 0;
export const CODE_BAD_PARAMS = 40000;
export const CODE_NOT_FOUND = 40004;

export const MSG = {
  ok: 'success',
  badParams: '参数错误',
  noArticle: '文章不存在',
  noCategory: '栏目不存在',
  noTopic: '专题不存在',
  noSite: '站点不存在',
  noAuthor: '专栏作者不存在',
  noTag: '标签不存在',
  noVideo: '视频不存在',
  noAlbum: '视频专辑不存在',
  noShikeCategory: '视刻分类不存在',
  noLive: '直播不存在',
  noSpecial: '专题报道不存在',
  noProduct: '内容类型不存在',
} as const;

export function ok<T>(data: T, extra: Partial<Envelope<T>> = {}): Reply {
  return json(200, { code: CODE_OK, msg: MSG.ok, data, ...extra });
}

export function fail(code: number, msg: string): Reply {
  const envelope: Envelope<null> = { code, msg, data: null };
  return json(200, envelope);
}
