/**
 * Who runs the portal: names, addresses and licence numbers shown in the footer and on the about, license and
 * site-map pages. SPEC §2 lists them without values; these are the publisher's.
 */
export const PORTAL_INFO = {
  name: '青年新闻网',
  company: '青年新闻网络传媒有限公司',
  address: '北京市东城区东直门海运仓2号',
  postcode: '100702',
  phone: '010-64098088',
  email: 'service@qnnews.cn',
  reportHotline: '010-64098099',
  reportEmail: 'jubao@qnnews.cn',
  newsLicence: '互联网新闻信息服务许可证 11120170002',
  icp: '京ICP备13018232号',
  publicSecurityRecord: '京公网安备 11010102002019号',
} as const;
