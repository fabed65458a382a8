/**
 * WeChat sign-in dialog (docs/product.md §2: '微信登录', width 400) showing WeChat's QR widget (docs/product.md §7). The widget's frame
 * starts on the server (/login/wechat?embed=1), which mints the random state, keeps it in an httpOnly cookie and
 * redirects the frame to WeChat's QR page with the app id, snsapi_login and the main site's login page as
 * redirect; a state made in page script could be read or fixed by any script on the page. Scanning sends the
 * whole page (not the frame) to the login page, which returns the reader here.
 *
 * One dialog per page, in the layout (<LoginDialogHost>): the header's 订阅 and every like, collect and subscribe
 * button of a visitor open it with requestSignIn().
 */
import { useEffect, useState } from 'react';
import { TEXT } from '../../constants';
import { usePortal } from '../context';
import { Modal } from './Modal';

export const LOGIN_MODAL_WIDTH = 400;

/** The full-page sign-in (WeChat's QR page), back to `returnPath` after: what 订阅 links to before script runs. */
export function signInHref(returnPath: string): string {
  return `/login/wechat?return=${encodeURIComponent(returnPath)}`;
}

/**
 * Where a reader signing in from this page comes back to: the page itself, or home from a 404 or error page (there
 * is nothing to come back to, and the page's path is whatever the request carried).
 */
export function returnPathOf(page: { path: string; status: number }): string {
  return page.status === 200 ? page.path : '/';
}

/** WeChat's QR widget is 300 wide; the frame also holds its caption and the page's padding. */
const QR_FRAME = { width: 320, height: 400 };

export function LoginModal({ open, onClose, returnPath }: { open: boolean; onClose: () => void; returnPath: string }) {
  const { state } = usePortal();
  // embed=1: the server asks WeChat for the framed widget, whose confirmation takes the whole page back.
  const signInUrl = `${signInHref(returnPath)}&embed=1`;
  return (
    <Modal open={open} title={TEXT.loginTitle} width={LOGIN_MODAL_WIDTH} onClose={onClose} className="login-modal">
      <div className="login-modal__body">
        {!state.signInAvailable ? (
          <p className="login-modal__closed">微信登录暂未开放</p>
        ) : (
          // Mounted only while the dialog is open: each opening starts one sign-in (one state) on the server.
          open && <iframe className="login-modal__qr" src={signInUrl} title="微信扫码登录" width={QR_FRAME.width} height={QR_FRAME.height} />
        )}
      </div>
    </Modal>
  );
}

export interface SignInRequest {
  /** The reader closed the dialog without signing in (not called when they follow the sign-in link). */
  onDismiss?: () => void;
}

type Listener = (request: SignInRequest) => void;
const listeners = new Set<Listener>();

/** Opens the page's sign-in dialog. */
export function requestSignIn(request: SignInRequest = {}): void {
  for (const listener of listeners) listener(request);
}

/** The page's one sign-in dialog; it returns the reader to the page they are on. */
export function LoginDialogHost() {
  const { state } = usePortal();
  const [request, setRequest] = useState<SignInRequest | null>(null);
  useEffect(() => {
    const listener: Listener = (next) => setRequest(next);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  const close = () => {
    request?.onDismiss?.();
    setRequest(null);
  };
  return <LoginModal open={request !== null} onClose={close} returnPath={returnPathOf(state.page)} />;
}
