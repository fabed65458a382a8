/**
 * Fixed links and facts of the chrome (header top bar, footer). SPEC §2 names these entries but not their
 * targets; these are the newspaper's public accounts and registration data as the footer of such a site shows.
 */
import { MAIN_DOMAIN } from '../shared/sites';

export const RECRUITMENT_URL = `https://${MAIN_DOMAIN}/about#recruitment`;
export const MOBILE_SITE_URL = `https://m.qnnews.cn/`;
export const SPECIAL_TOPICS_URL = 'https://zt.qnnews.cn/';
export const REPORT_CENTER_URL = 'https://www.12377.cn/';
export const WEIBO_SHARE_URL = 'https://service.weibo.com/share/share.php';
export const SHARE_HASHTAG = '#青年新闻网#';

export interface MatrixAccount {
  name: string;
  url: string;
}

/** Media matrix: each account's QR code is drawn from its URL. */
export const MEDIA_MATRIX: readonly MatrixAccount[] = [
  { name: '微信公众号', url: 'https://mp.weixin.qq.com/mp/profile_ext?action=home&__biz=qnnews' },
  { name: '官方微博', url: 'https://weibo.com/qnnews' },
  { name: '抖音号', url: 'https://www.douyin.com/user/qnnews' },
  { name: '新闻客户端', url: 'https://m.qnnews.cn/app' },
];

export const PRODUCT_MATRIX: readonly MatrixAccount[] = [
  { name: '青年新闻客户端', url: 'https://m.qnnews.cn/app' },
  { name: '青年电子报', url: '/electronic' },
  { name: '青年视听', url: '/hd' },
  { name: '青年微信小程序', url: 'https://m.qnnews.cn/miniprogram' },
];

export const COMPANY = {
  name: '青年新闻网络传媒有限公司',
  address: '北京市东城区东长安街青年大厦',
  phone: '010-12345678',
  reportHotline: '010-12345679',
  reportEmail: 'jubao@qnnews.cn',
  licence: '互联网新闻信息服务许可证：10120170001',
  icp: '京ICP备12345678号-1',
  icpUrl: 'https://beian.miit.gov.cn/',
} as const;
