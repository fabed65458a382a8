/** The publisher's licences and records, as Chinese news sites must show them. */
import { PORTAL_INFO } from '../../portal-info';

export default function LicensePage() {
  return (
    <article className="info" aria-labelledby="license-title">
      <h1 id="license-title" className="page-title">
        证照信息
      </h1>
      <dl className="info__licences">
        <dt>主办单位</dt>
        <dd>{PORTAL_INFO.company}</dd>
        <dt>互联网新闻信息服务许可</dt>
        <dd>{PORTAL_INFO.newsLicence}</dd>
        <dt>ICP备案</dt>
        <dd>{PORTAL_INFO.icp}</dd>
        <dt>公安备案</dt>
        <dd>{PORTAL_INFO.publicSecurityRecord}</dd>
        <dt>违法和不良信息举报电话</dt>
        <dd>{PORTAL_INFO.reportHotline}</dd>
      </dl>
    </article>
  );
}
