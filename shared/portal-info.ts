/**
 * Who runs the portal: names, addresses and licence numbers shown in the footer and on the about, license and
 * site-map pages. docs/product.md §2 lists them without values; these are the publisher's.
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
  /** Where applications go (the top bar's 招聘 and the footer's 招聘信息 lead to /about#recruitment). */
  recruitmentEmail: 'hr@qnnews.cn',
} as const;

/** The standing openings the about page lists under 招聘信息. */
export const RECRUITMENT = {
  intro: '青年新闻网长期招聘新闻采编、视觉与技术人才，欢迎热爱新闻事业、关注青年成长的你加入。',
  openings: [
    { title: '文字记者', duty: '时政、社会与教育领域的采访报道，能独立完成选题策划与深度稿件。', requirement: '新闻、中文等相关专业本科及以上学历。' },
    { title: '网络编辑', duty: '频道内容编排、专题策划与新媒体分发，负责稿件编校与审核。', requirement: '文字功底扎实，熟悉网络传播规律。' },
    { title: '视频编导', duty: '短视频与直播节目的策划、拍摄和剪辑。', requirement: '熟练使用主流剪辑软件，有作品集者优先。' },
    { title: '前端工程师', duty: '新闻网站与移动端页面的开发和性能优化。', requirement: '熟悉 TypeScript 与 React，重视可访问性。' },
  ],
  howToApply: '请将简历及代表作品发送至招聘邮箱，邮件标题注明“应聘岗位＋姓名”，我们会在十个工作日内回复。',
} as const;
