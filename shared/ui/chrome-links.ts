/**
 * Fixed links and facts of the chrome (header top bar, footer). docs/product.md §2 names these entries but not their
 * targets; these are the newspaper's public accounts and registration data as the footer of such a site shows.
 */
import { PORTAL_INFO } from '../portal-info';
import { MAIN_DOMAIN } from '../sites';

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

/** The publisher's facts come from shared/portal-info.ts, so footer, about, license and site map agree. */
export const COMPANY = {
  name: PORTAL_INFO.company,
  address: PORTAL_INFO.address,
  phone: PORTAL_INFO.phone,
  reportHotline: PORTAL_INFO.reportHotline,
  reportEmail: PORTAL_INFO.reportEmail,
  licence: PORTAL_INFO.newsLicence,
  icp: PORTAL_INFO.icp,
  publicSecurityRecord: PORTAL_INFO.publicSecurityRecord,
  icpUrl: 'https://beian.miit.gov.cn/',
} as const;
