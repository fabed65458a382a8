/**
 * The layouts of docs/product.md §2 around a page. Default: header, content, footer in the 1296px frame, back-to-top.
 * Detail: the content beside a right column (hot news with its ads, the first 4 recommended topics, special
 * columns), the article's top ad over both from 768px up (drawn there by CSS, see DetailColumns). Reading: no header or side column, dark or light. Small footer on
 * contribute, seekingReport and moveInto; company info on siteMap.
 */
import type { ReactNode } from 'react';
import type { PageState } from '../../app-state';
import type { LayoutKind } from '../../routes';
import type { AdGroups } from '../../types/entities';
import { BackToTop } from '../blocks/BackToTop';
import { Footer, type FooterVariant } from '../blocks/Footer';
import { Header } from '../blocks/Header';
import { HotNews } from '../blocks/HotNews';
import { LoadingBar } from '../blocks/LoadingBar';
import { LoginDialogHost } from '../blocks/LoginModal';
import { PreviewBanner } from '../blocks/PreviewBanner';
import { RecommendedTopics } from '../blocks/RecommendedTopics';
import { SpecialColumns } from '../blocks/SpecialColumns';
import { ToastHost } from '../blocks/Toast';
import { WechatShare } from '../blocks/WechatShare';
import { usePortal } from '../context';

const NO_ADS: AdGroups = { detailTop: [], hotNewsTop: [], hotNewsBot: [], hotTopicBot: [], specialColBot: [] };

/** The detail page's ad groups, when the page shown is a detail page. */
function detailAds(page: PageState): AdGroups {
  return page.page === 'detail' ? page.data.ads : NO_ADS;
}

function DetailColumns({ ads, children }: { ads: AdGroups; children: ReactNode }) {
  return (
    // The top ad over both columns from 768px up is the article's own (shared/pages/detail/DetailPage.tsx), lifted
    // there by CSS: one copy for every width (decision 0150).
    <div className="columns">
      <div className="columns__main">{children}</div>
      <aside className="columns__side" aria-label="侧栏">
        <HotNews adsAbove={ads.hotNewsTop} adsBelow={ads.hotNewsBot} />
        <RecommendedTopics adsBelow={ads.hotTopicBot} />
        <SpecialColumns adsBelow={ads.specialColBot} />
      </aside>
    </div>
  );
}

function footerVariant(kind: LayoutKind): FooterVariant {
  if (kind === 'smallFooter') return 'small';
  if (kind === 'siteMap') return 'siteMap';
  return 'full';
}

export function Layout({ kind, children }: { kind: LayoutKind; children: ReactNode }) {
  const { navigating, state } = usePortal();
  // Grey mode follows the page shown, so navigating away from home clears a home-only grey (docs/product.md §4).
  const grey = state.layout.greyMode === 'layout' || (state.layout.greyMode === 'home' && state.page.page === 'home');
  // Article layouts carry the float menu, a bar along the screen's bottom on phones: room is kept for it (CSS).
  const tools = kind === 'detail' || kind === 'reading';
  const classes = ['app', grey ? 'app--grey' : '', kind === 'reading' ? 'app--reading' : '', tools ? 'app--tools' : ''].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <PreviewBanner />
      <a className="skip-link" href="#main">
        跳到正文
      </a>
      <LoadingBar active={navigating} />
      {kind !== 'reading' && <Header />}
      {/* Focusable from script only, so following 跳到正文 moves focus into it, and the next Tab goes on from there. */}
      <main id="main" className="page-width" tabIndex={-1}>
        {kind === 'detail' ? <DetailColumns ads={detailAds(state.page)}>{children}</DetailColumns> : children}
      </main>
      {kind !== 'reading' && <Footer variant={footerVariant(kind)} />}
      <BackToTop />
      <ToastHost />
      <LoginDialogHost />
      <WechatShare />
    </div>
  );
}
