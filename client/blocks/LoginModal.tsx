/**
 * WeChat sign-in dialog (SPEC §2: '微信登录', width 400). The QR code is the WeChat web sign-in address for
 * this page; exchanging the returned code is the accounts issue's server work.
 */
import { TEXT } from '../../shared/constants';
import { Modal } from './Modal';
import { QrCode } from './QrCode';

export const LOGIN_MODAL_WIDTH = 400;

export function LoginModal({ open, onClose, returnUrl }: { open: boolean; onClose: () => void; returnUrl: string }) {
  const signInUrl = `https://open.weixin.qq.com/connect/qrconnect?scope=snsapi_login&redirect_uri=${encodeURIComponent(returnUrl)}`;
  return (
    <Modal open={open} title={TEXT.loginTitle} width={LOGIN_MODAL_WIDTH} onClose={onClose} className="login-modal">
      <div className="login-modal__body">
        <QrCode value={signInUrl} size={200} label="微信扫码登录二维码" />
        <p>请使用微信扫描二维码登录</p>
      </div>
    </Modal>
  );
}
