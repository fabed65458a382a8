/**
 * The header's top-right bar (docs/product.md §2): media matrix (QR codes on hover or focus), recruitment, mobile site
 * code, 'need report', 'move in', and either the signed-in reader's menu or 'subscribe', which opens the
 * WeChat sign-in dialog.
 */
import type { PublicUser } from '../../app-state';
import { useId, useState, type MouseEvent } from 'react';
import { Link } from '../link';
import { MEDIA_MATRIX, MOBILE_SITE_URL, RECRUITMENT_URL } from '../chrome-links';
import { usePortal } from '../context';
import { requestSignIn, returnPathOf, signInHref } from './LoginModal';
import { NightModeSwitch } from './NightModeSwitch';
import { QrImage } from './QrImage';
import { SiteLink } from './SiteLink';

/** A reader's public identity: from the server's session, or from the reader cookie after hydration (state.user). */
export type SignedInUser = PublicUser;

function Tooltip({ label, className, children }: { label: string; className: string; children: React.ReactNode }) {
  // The panel shows on :hover and :focus-within (CSS), so it works before script and from the keyboard; script
  // follows the same two conditions so the button says whether its panel is open (aria-expanded, issue 29).
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const panelId = useId();
  return (
    <div
      className={`tooltip ${className}`}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => setFocused(event.currentTarget.contains(event.relatedTarget as Node | null))}
    >
      <button type="button" className="top-bar__link" aria-haspopup="true" aria-expanded={hovered || focused} aria-controls={panelId}>
        {label}
      </button>
      <div className="tooltip__panel" id={panelId}>
        {children}
      </div>
    </div>
  );
}

function UserMenuLinks() {
  return (
    <div className="tooltip__panel">
      <Link className="account-entry" to="/personalCenter">
        个人中心
      </Link>
      <form method="post" action="/logout">
        <button type="submit" className="account-entry">
          退出登录
        </button>
      </form>
    </div>
  );
}

function UserMenu({ user }: { user: SignedInUser }) {
  return (
    <div className="tooltip user-menu">
      <button type="button" className="top-bar__link user-menu__trigger" aria-haspopup="true">
        <img src={user.avatar || undefined} alt="" width={24} height={24} className="user-menu__avatar" />
        {user.nickname}
      </button>
      <UserMenuLinks />
    </div>
  );
}

/**
 * The reader's menu in a page cached for everyone, where React does not know the reader yet: the same markup for
 * every reader (so hydration matches), hidden unless the head script found the reader cookie (or, without script,
 * the reader stylesheet loaded), its avatar and nickname drawn by CSS from custom properties. After hydration the
 * client reads the same cookie and renders UserMenu in its place (see shared/reader-cookie.ts).
 */
function CachedPageReaderMenu() {
  return (
    <div className="tooltip reader-menu">
      <button type="button" className="top-bar__link reader-menu__trigger" aria-haspopup="true">
        <span className="reader-menu__avatar" />
        <span className="reader-menu__name" />
      </button>
      <UserMenuLinks />
    </div>
  );
}

/** With script, 订阅 opens the sign-in dialog; a modified click (new tab) and script-less readers follow the link. */
function openSignInDialog(event: MouseEvent<HTMLAnchorElement>): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  requestSignIn();
}

export function TopBar() {
  const { state } = usePortal();
  const user = state.user;
  return (
    <div className="top-bar">
      <div className="top-bar__inner page-width">
        <span className="top-bar__site">{state.layout.seo.title}</span>
        <nav className="top-bar__links" aria-label="服务">
          <Tooltip label="媒体矩阵" className="media-matrix">
            <ul className="qr-grid">
              {MEDIA_MATRIX.map((account) => (
                <li key={account.name}>
                  <QrImage value={account.url} size={96} label={`${account.name}二维码`} />
                  <span>{account.name}</span>
                </li>
              ))}
            </ul>
          </Tooltip>
          <SiteLink className="top-bar__link" href={RECRUITMENT_URL}>
            招聘
          </SiteLink>
          <Tooltip label="手机版" className="mobile-code">
            <QrImage value={MOBILE_SITE_URL} size={96} label="手机版二维码" />
          </Tooltip>
          <Link className="top-bar__link" to="/seekingReport">
            我要报料
          </Link>
          <Link className="top-bar__link" to="/moveInto">
            我要入驻
          </Link>
          <NightModeSwitch className="top-bar__link top-bar__night" />
          {user ? (
            <UserMenu user={user} />
          ) : (
            <>
              <CachedPageReaderMenu />
              <a className="top-bar__subscribe" href={signInHref(returnPathOf(state.page))} onClick={openSignInDialog}>
                订阅
              </a>
            </>
          )}
        </nav>
      </div>
    </div>
  );
}
