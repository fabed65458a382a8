/**
 * The header's top-right bar (docs/product.md §2): media matrix (QR codes on hover or focus), recruitment, mobile site
 * code, 'need report', 'move in', and either the signed-in reader's menu or 'subscribe', which opens the
 * WeChat sign-in dialog.
 */
import type { PublicUser } from '../../app-state';
import { useId, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { Link } from '../link';
import { MEDIA_MATRIX, MOBILE_SITE_URL, RECRUITMENT_URL } from '../chrome-links';
import { useImages, usePortal } from '../context';
import { densitySrcSet } from '../../image-sizes';
import { useEscape } from '../lib/use-escape';
import { requestSignIn, returnPathOf, signInHref } from './LoginModal';
import { NightModeSwitch } from './NightModeSwitch';
import { QrImage } from './QrImage';
import { SiteLink } from './SiteLink';

/** A reader's public identity: from the server's session, or from the reader cookie after hydration (state.user). */
export type SignedInUser = PublicUser;

/**
 * A button with a panel (QR codes, the reader's menu). The panel shows on :hover and :focus-within (CSS), so it
 * works before script and from the keyboard; script follows the same two conditions so the button says whether
 * its panel is open (aria-expanded), and Escape closes it (focus back on the button) until the pointer and focus
 * have both left, or the button is pressed again.
 */
function Popup({ trigger, className, buttonClassName, children }: { trigger: ReactNode; className: string; buttonClassName: string; children: ReactNode }) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const open = (hovered || focused) && !dismissed;
  useEscape(open, () => {
    setDismissed(true);
    button.current?.focus();
  });
  const leave = (stillHovered: boolean, stillFocused: boolean) => {
    if (!stillHovered && !stillFocused) setDismissed(false);
  };
  return (
    <div
      className={`tooltip ${className}${dismissed ? ' tooltip--dismissed' : ''}`}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => {
        setHovered(false);
        leave(false, focused);
      }}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        const inside = event.currentTarget.contains(event.relatedTarget as Node | null);
        setFocused(inside);
        leave(hovered, inside);
      }}
    >
      <button
        ref={button}
        type="button"
        className={buttonClassName}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setDismissed(false)}
      >
        {trigger}
      </button>
      <div className="tooltip__panel" id={panelId}>
        {children}
      </div>
    </div>
  );
}

function UserMenuLinks() {
  return (
    <>
      <Link className="account-entry" to="/personalCenter">
        个人中心
      </Link>
      <form method="post" action="/logout">
        <button type="submit" className="account-entry">
          退出登录
        </button>
      </form>
    </>
  );
}

function UserMenu({ user }: { user: SignedInUser }) {
  const images = useImages();
  return (
    <Popup
      className="user-menu"
      buttonClassName="top-bar__link user-menu__trigger"
      trigger={
        <>
          <img src={user.avatar || undefined} srcSet={densitySrcSet(user.avatar, 24, images)} alt="" width={24} height={24} className="user-menu__avatar" />
          {user.nickname}
        </>
      }
    >
      <UserMenuLinks />
    </Popup>
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
    <Popup
      className="reader-menu"
      buttonClassName="top-bar__link reader-menu__trigger"
      trigger={
        <>
          <span className="reader-menu__avatar" />
          <span className="reader-menu__name" />
        </>
      }
    >
      <UserMenuLinks />
    </Popup>
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
          <Popup trigger="媒体矩阵" className="media-matrix" buttonClassName="top-bar__link">
            <ul className="qr-grid">
              {MEDIA_MATRIX.map((account) => (
                <li key={account.name}>
                  <QrImage value={account.url} size={96} label={`${account.name}二维码`} />
                  <span>{account.name}</span>
                </li>
              ))}
            </ul>
          </Popup>
          <SiteLink className="top-bar__link" href={RECRUITMENT_URL}>
            招聘
          </SiteLink>
          <Popup trigger="手机版" className="mobile-code" buttonClassName="top-bar__link">
            <QrImage value={MOBILE_SITE_URL} size={96} label="手机版二维码" />
          </Popup>
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

/**
 * Under 768px the top bar's entries are rows at the end of the 菜单 panel (./Header), the top bar itself hidden so
 * the news comes first (docs/decisions/0150-compact-phone-header.md). Its QR codes are left out: a phone cannot
 * scan its own screen, and the footer shows the same codes to save. The reader's entries are plain rows here, no
 * popup: 个人中心 and 退出登录 once signed in (on a page cached for everyone, shown by html[data-reader], as the
 * top bar's reader menu is), else 订阅. Hidden from 768px up (CSS), where the top bar shows; named apart from the
 * top bar's 服务 all the same, since a landmark list names each landmark once whatever shows (issue 29). Its rows
 * are styled by their place (CSS), no class each: every byte here is in every page's HTML.
 */
export function PhoneServices() {
  const { state } = usePortal();
  const user = state.user;
  return (
    <nav className="phone-services" aria-label="更多服务">
      <SiteLink href={RECRUITMENT_URL}>招聘</SiteLink>
      <Link to="/seekingReport">我要报料</Link>
      <Link to="/moveInto">我要入驻</Link>
      <NightModeSwitch className="phone-services__link" />
      {user ? (
        <UserMenuLinks />
      ) : (
        <>
          <div className="phone-services__reader">
            <UserMenuLinks />
          </div>
          <a className="phone-services__subscribe" href={signInHref(returnPathOf(state.page))} onClick={openSignInDialog}>
            订阅
          </a>
        </>
      )}
    </nav>
  );
}
