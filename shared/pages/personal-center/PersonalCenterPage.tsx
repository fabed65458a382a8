/**
 * Personal center. A visitor sees what signing in gives. A signed-in reader sees their profile (with a refresh
 * through POST /api/user/profile) and one section at a time: collected articles and videos, subscribed column
 * authors and tags (each paged, with an empty state), or the feedback form. Sections are links (`?tab=`), so each
 * has its own address, works without script and is reached with Tab like any link; the lists come rendered
 * from the server (server/pages/personal-center/loader.ts; the sections and addresses are in shared/personal-center.ts).
 */
import { useState } from 'react';
import { Link } from '../../ui/link';
import type { PublicUser } from '../../app-state';
import { personalCenterHref, type ListSection, type PersonalCenterData, type PersonalSection, type PersonalTab } from '../../personal-center';
import { href } from '../../routes';
import type { ArticleSummary, ColumnAuthor, Tag } from '../../types/entities';
import { ArticleList } from '../../ui/blocks/ArticleList';
import { FeedbackForm } from '../../ui/blocks/FeedbackForm';
import { Pagination } from '../../ui/blocks/Pagination';
import { VideoGrid } from '../../ui/blocks/VideoGrid';
import type { CollectedVideo } from '../../account-api';
import { useImages, usePortal } from '../../ui/context';
import { proxyPost } from '../../ui/lib/proxy-fetch';
import { densitySrcSet } from '../../image-sizes';

const TAB_LABELS: Record<PersonalTab, string> = {
  articles: '收藏的文章',
  videos: '收藏的视频',
  columns: '订阅的专栏',
  tags: '订阅的标签',
  feedback: '意见反馈',
};

const TAB_ORDER: readonly PersonalTab[] = ['articles', 'videos', 'columns', 'tags', 'feedback'];
export const PANEL_ID = 'personal-panel';

function VisitorPrompt() {
  return (
    <section className="personal-center" aria-labelledby="personal-title">
      <h1 id="personal-title" className="page-title">
        个人中心
      </h1>
      <p>登录后可查看您的收藏、订阅的专栏和标签，并管理个人资料。</p>
      <p className="personal-center__hint">请点击页面右上角的“订阅”，使用微信扫码登录。</p>
    </section>
  );
}

function ProfileCard({ user }: { user: PublicUser }) {
  const { updateUser } = usePortal();
  const images = useImages();
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  async function refresh(): Promise<void> {
    if (busy) return;
    setBusy(true);
    const answer = await proxyPost<{ userinfo: PublicUser }>('/api/user/profile');
    setBusy(false);
    const fresh = answer.code === 0 ? answer.data?.userinfo : undefined;
    if (!fresh) {
      setStatus('资料刷新失败，请稍后再试');
      return;
    }
    updateUser?.({ user_id: fresh.user_id, nickname: fresh.nickname, avatar: fresh.avatar });
    setStatus('资料已更新');
  }

  return (
    <div className="profile-card">
      <img className="profile-card__avatar" src={user.avatar || undefined} srcSet={densitySrcSet(user.avatar, 72, images)} alt="" width={72} height={72} />
      <div className="profile-card__text">
        <p className="profile-card__name">{user.nickname}</p>
        <p className="profile-card__id">{`用户ID：${user.user_id}`}</p>
      </div>
      <button type="button" className="button button--quiet profile-card__refresh" onClick={() => void refresh()} disabled={busy}>
        {busy ? '刷新中…' : '刷新资料'}
      </button>
      <p className="profile-card__status" role="status">
        {status}
      </p>
    </div>
  );
}

function SectionNav({ active }: { active: PersonalTab }) {
  return (
    <nav className="personal-tabs" aria-label="个人中心栏目">
      <ul>
        {TAB_ORDER.map((tab) => (
          <li key={tab}>
            <Link
              to={personalCenterHref(tab)}
              className={tab === active ? 'personal-tabs__link personal-tabs__link--active' : 'personal-tabs__link'}
              aria-current={tab === active ? 'page' : undefined}
            >
              {TAB_LABELS[tab]}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Empty({ text, link }: { text: string; link?: { to: string; label: string } }) {
  return (
    <div className="personal-empty">
      <p>{text}</p>
      {link && <Link to={link.to}>{link.label}</Link>}
    </div>
  );
}

function AuthorList({ authors }: { authors: readonly ColumnAuthor[] }) {
  const images = useImages();
  return (
    <ul className="personal-authors">
      {authors.map((author) => (
        <li key={author.id} className="columnist">
          <img
            src={author.avatar || undefined}
            srcSet={densitySrcSet(author.avatar, 64, images)}
            alt=""
            width={64}
            height={64}
            loading="lazy"
            decoding="async"
          />
          <div>
            <Link className="columnist__name" to={href.specialColumnDetail(author.id)}>
              {author.name}
            </Link>
            <p className="columnist__bio">{author.description}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}

function TagList({ tags }: { tags: readonly Tag[] }) {
  return (
    <ul className="personal-tags">
      {tags.map((tag) => (
        <li key={tag.id}>
          <Link to={href.tag(tag.id)}>#{tag.name}</Link>
        </li>
      ))}
    </ul>
  );
}

type AnyList =
  ListSection<'articles', ArticleSummary> | ListSection<'videos', CollectedVideo> | ListSection<'columns', ColumnAuthor> | ListSection<'tags', Tag>;

function ListItems({ section }: { section: AnyList }) {
  if (section.tab === 'articles') {
    if (section.items.length === 0) return <Empty text="还没有收藏的文章。在文章页收藏后，会出现在这里。" link={{ to: href.home(), label: '去首页看看' }} />;
    return <ArticleList items={section.items} className="article-list personal-articles" />;
  }
  if (section.tab === 'videos') {
    if (section.items.length === 0) return <Empty text="还没有收藏的视频。" link={{ to: '/shike/2839', label: '去看视刻' }} />;
    return <VideoGrid videos={section.items} />;
  }
  if (section.tab === 'columns') {
    if (section.items.length === 0) return <Empty text="还没有订阅的专栏。" link={{ to: '/specialColumn', label: '浏览专栏' }} />;
    return <AuthorList authors={section.items} />;
  }
  if (section.items.length === 0) return <Empty text="还没有订阅的标签。在文章的标签页订阅后，会出现在这里。" />;
  return <TagList tags={section.items} />;
}

function SectionBody({ section }: { section: PersonalSection }) {
  if (section.tab === 'feedback') return <FeedbackForm />;
  if (section.status === 'unavailable') return <p className="personal-empty">暂时无法加载，请稍后再试。</p>;
  return (
    <>
      {section.total > 0 && <p className="personal-panel__total">{`共${section.total}项`}</p>}
      <ListItems section={section} />
      <Pagination basePath={personalCenterHref(section.tab)} page={section.page} lastPage={section.lastPage} />
    </>
  );
}

export default function PersonalCenterPage({ data }: { data: PersonalCenterData }) {
  const { state } = usePortal();
  if (data.kind === 'visitor' || !state.user) return <VisitorPrompt />;
  const { section } = data;
  return (
    <section className="personal-center personal-center--member" aria-labelledby="personal-title">
      <h1 id="personal-title" className="page-title">
        个人中心
      </h1>
      <ProfileCard user={state.user} />
      <SectionNav active={section.tab} />
      <section id={PANEL_ID} className="personal-panel" aria-labelledby="personal-section-title">
        <h2 id="personal-section-title" className="personal-panel__title">
          {TAB_LABELS[section.tab]}
        </h2>
        <SectionBody section={section} />
      </section>
    </section>
  );
}
