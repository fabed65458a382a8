/** Share to WeChat (docs/product.md §2): '分享到微信朋友圈' with a 260x260 QR code of the page and '复制链接'. */
import { TEXT } from '../../constants';
import { Modal } from './Modal';
import { QrCode } from './QrCode';
import { showToast } from './Toast';

export const SHARE_QR_PX = 260;

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Older browsers and insecure origins have no async clipboard: copy through a selected text field.
    const field = document.createElement('textarea');
    field.value = text;
    field.setAttribute('readonly', '');
    field.style.position = 'fixed';
    field.style.opacity = '0';
    document.body.appendChild(field);
    field.select();
    const ok = document.execCommand('copy');
    field.remove();
    return ok;
  }
}

export function ShareModal({ open, url, onClose }: { open: boolean; url: string; onClose: () => void }) {
  return (
    <Modal open={open} title={TEXT.shareTitle} width={SHARE_QR_PX + 80} onClose={onClose} className="share-modal">
      <div className="share-modal__body">
        <QrCode value={url} size={SHARE_QR_PX} label="本页二维码" />
        <p>打开微信，扫一扫，分享到朋友圈</p>
        <button
          type="button"
          className="button"
          onClick={() => {
            void copyText(url).then((ok) => ok && showToast(TEXT.copySuccess));
          }}
        >
          {TEXT.copyLink}
        </button>
      </div>
    </Modal>
  );
}
