/**
 * The floating action menu of article pages (docs/product.md §2): reading mode, report, like (with its count) and collect
 * (shown: issue 6 turns them on; docs/product.md §4/§5 rules in ./InteractionButton), text size 0–2, night mode, share to
 * Weibo and to WeChat. On the detail page it pins to the top of the viewport once the reader has scrolled past
 * the header, 30px and the top ad.
 */
import { useEffect, useState } from 'react';
import { Link } from '../link';
import { href } from '../../routes';
import { TEXT_SIZE_MAX, TEXT_SIZE_MIN } from '../../preferences';
import { REPORT_CENTER_URL, SHARE_HASHTAG, WEIBO_SHARE_URL } from '../chrome-links';
import { usePortal } from '../context';
import { useNightMode, useTextSize } from '../lib/preferences';
import { ArticleMarkButtons } from './InteractionButton';
import { ScriptOnly } from './ScriptOnly';
import { ShareModal } from './ShareModal';

export const PIN_GAP_PX = 30;

export interface FloatMenuArticle {
  catid: number;
  id: number;
  title: string;
}

/** Scroll offset after which the menu pins: header height + 30 + the top ad's height (docs/product.md §2 detail). */
function pinThreshold(): number {
  const header = document.querySelector<HTMLElement>('.site-header');
  const ad = document.querySelector<HTMLElement>('.detail-top-ad');
  return (header?.offsetHeight ?? 0) + PIN_GAP_PX + (ad?.offsetHeight ?? 0);
}

function usePinned(enabled: boolean): boolean {
  const [pinned, setPinned] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const update = () => setPinned(window.scrollY > pinThreshold());
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [enabled]);
  return pinned;
}

export function FloatMenu({ article, mode }: { article: FloatMenuArticle; mode: 'detail' | 'reading' }) {
  const { state } = usePortal();
  const [night, setNight] = useNightMode();
  const [textSize, setTextSize] = useTextSize();
  const [shareOpen, setShareOpen] = useState(false);
  const [pageUrl, setPageUrl] = useState(`https://${state.site.domain}${state.page.path}`);
  const pinned = usePinned(mode === 'detail');
  // The address the reader actually has (host, port), known only in the browser.
  useEffect(() => setPageUrl(window.location.href), [state.page.path]);

  const weibo = `${WEIBO_SHARE_URL}?url=${encodeURIComponent(pageUrl)}&title=${encodeURIComponent(`${article.title} ${SHARE_HASHTAG}`)}`;
  return (
    <nav className={pinned ? 'float-menu float-menu--pinned' : 'float-menu'} aria-label="文章工具">
      {mode === 'detail' && (
        <Link className="float-menu__item" to={href.detailReading(article.catid, article.id)}>
          阅读模式
        </Link>
      )}
      <a className="float-menu__item" href={REPORT_CENTER_URL} target="_blank" rel="noopener noreferrer">
        举报
      </a>
      {/* 点赞, 收藏, 字号, 夜间 and 微信 need script: absent until it runs (./ScriptOnly). */}
      <ScriptOnly>
        <ArticleMarkButtons catid={article.catid} id={article.id} collectKind="collection" withLike className="float-menu__item" />
        <label className="float-menu__item float-menu__size">
          <span>字号</span>
          <input
            type="range"
            min={TEXT_SIZE_MIN}
            max={TEXT_SIZE_MAX}
            step={1}
            value={textSize}
            aria-label="字号"
            onChange={(event) => setTextSize(Number(event.target.value))}
          />
        </label>
        <button type="button" className="float-menu__item float-menu__night" aria-pressed={night} onClick={() => setNight(!night)}>
          {night ? '日间' : '夜间'}
        </button>
      </ScriptOnly>
      <a className="float-menu__item" href={weibo} target="_blank" rel="noopener noreferrer">
        微博
      </a>
      <ScriptOnly>
        <button type="button" className="float-menu__item" aria-haspopup="dialog" onClick={() => setShareOpen(true)}>
          微信
        </button>
        <ShareModal open={shareOpen} url={pageUrl} onClose={() => setShareOpen(false)} />
      </ScriptOnly>
    </nav>
  );
}
