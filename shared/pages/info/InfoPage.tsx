/** About, contribute, seeking report and move-in: the editors' text, and on about the contact section. */
import type { InfoPageData } from './route';
import { PORTAL_INFO, RECRUITMENT } from '../../portal-info';
import { withBodyImageCandidates } from '../../image-sizes';
import { useImages } from '../../ui/context';

function Contact() {
  return (
    <section id="contact" className="info__contact" aria-labelledby="contact-title">
      <h2 id="contact-title">联系我们</h2>
      <dl>
        <dt>地址</dt>
        <dd>
          {PORTAL_INFO.address}（邮编 {PORTAL_INFO.postcode}）
        </dd>
        <dt>电话</dt>
        <dd>{PORTAL_INFO.phone}</dd>
        <dt>邮箱</dt>
        <dd>{PORTAL_INFO.email}</dd>
        <dt>违法和不良信息举报</dt>
        <dd>
          {PORTAL_INFO.reportHotline} · {PORTAL_INFO.reportEmail}
        </dd>
      </dl>
    </section>
  );
}

function Recruitment() {
  return (
    <section id="recruitment" className="info__contact info__recruitment" aria-labelledby="recruitment-title">
      <h2 id="recruitment-title">招聘信息</h2>
      <p>{RECRUITMENT.intro}</p>
      <dl>
        {RECRUITMENT.openings.map((opening) => (
          <div key={opening.title} className="info__opening">
            <dt>{opening.title}</dt>
            <dd>
              {opening.duty}
              {opening.requirement}
            </dd>
          </div>
        ))}
      </dl>
      <p>
        {RECRUITMENT.howToApply}招聘邮箱：<a href={`mailto:${PORTAL_INFO.recruitmentEmail}`}>{PORTAL_INFO.recruitmentEmail}</a>
      </p>
    </section>
  );
}

export default function InfoPage({ data }: { data: InfoPageData }) {
  const images = useImages();
  return (
    <article className="info" aria-labelledby="info-title">
      <h1 id="info-title" className="page-title">
        {data.title}
      </h1>
      {data.article ? (
        // Sanitised on the server like every article body.
        <div className="article__body" dangerouslySetInnerHTML={{ __html: withBodyImageCandidates(data.article.contentHtml, images) }} />
      ) : (
        <p className="empty">内容整理中。</p>
      )}
      {data.kind === 'about' && <Contact />}
      {data.kind === 'about' && <Recruitment />}
    </article>
  );
}
