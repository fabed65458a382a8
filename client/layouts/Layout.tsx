/**
 * The layouts of SPEC §2 around a page. Default: header, content, footer in the 1296px frame. Detail: the
 * content beside a right column with hot news.
 */
import type { ReactNode } from 'react';
import type { LayoutKind } from '../../shared/routes';
import { Footer } from '../blocks/Footer';
import { Header } from '../blocks/Header';
import { HotNews } from '../blocks/HotNews';
import { usePortal } from '../context';

function DetailColumns({ children }: { children: ReactNode }) {
  return (
    <div className="columns">
      <div className="columns__main">{children}</div>
      <aside className="columns__side" aria-label="侧栏">
        <HotNews />
      </aside>
    </div>
  );
}

export function Layout({ kind, children }: { kind: LayoutKind; children: ReactNode }) {
  const { navigating, state } = usePortal();
  const grey = state.layout.greyMode === 'layout' || (state.layout.greyMode === 'home' && state.page.page === 'home');
  return (
    <div className={grey ? 'app app--grey' : 'app'}>
      {navigating && <div className="loading-bar" role="progressbar" aria-label="加载中" />}
      <Header />
      <main id="main" className="page-width">
        {kind === 'detail' ? <DetailColumns>{children}</DetailColumns> : children}
      </main>
      <Footer />
    </div>
  );
}
