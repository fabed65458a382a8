/**
 * WeChat sign-in dialog (SPEC §2: '微信登录', width 400). The sign-in starts on the server (/login/wechat), which
 * mints the random state, keeps it in an httpOnly cookie and sends the reader to WeChat's QR page; a state made
 * in page script could be read or fixed by any script on the page.
 *
 * One dialog per page, in the layout (<LoginDialogHost>): the header's 订阅 and every like, collect and subscribe
 * button of a visitor open it with requestSignIn().
 */
import { useEffect, useState } from 'react';
import { TEXT } from '../../shared/constants';
import { usePortal } from '../context';
import { Modal } from './Modal';

export const LOGIN_MODAL_WIDTH = 400;

export function LoginModal({ open, onClose, returnPath }: { open: boolean; onClose: () => void; returnPath: string }) {
  const signInUrl = `/login/wechat?return=${encodeURIComponent(returnPath)}`;
  return (
    <Modal open={open} title={TEXT.loginTitle} width={LOGIN_MODAL_WIDTH} onClose={onClose} className="login-modal">
      <div className="login-modal__body">
        <p>请使用微信扫描二维码登录</p>
        {/* A full navigation, not a router link: the server answers with a redirect to WeChat. */}
        <a className="login-modal__wechat" href={signInUrl}>
          微信扫码登录
        </a>
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
  return <LoginModal open={request !== null} onClose={close} returnPath={state.page.path} />;
}
