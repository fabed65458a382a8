/**
 * WeChat sign-in dialog (SPEC §2: '微信登录', width 400). The sign-in starts on the server (/login/wechat), which
 * mints the random state, keeps it in an httpOnly cookie and sends the reader to WeChat's QR page; a state made
 * in page script could be read or fixed by any script on the page.
 */
import { TEXT } from '../../shared/constants';
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
