/**
 * An editor's preview (docs/preview.md): above everything, says the page shows drafts, when they were loaded (the
 * render's time) and how to leave. 退出预览 is a document load of the exit route, which clears the preview cookie
 * and comes back to the published page.
 */
import { PREVIEW_EXIT } from '../../preview';
import { usePortal } from '../context';
import { DateTime } from './DateTime';

export function PreviewBanner() {
  const { state } = usePortal();
  if (!state.preview) return null;
  return (
    <div className="preview-banner" role="status">
      <strong className="preview-banner__mode">预览模式</strong>
      <span className="preview-banner__time">
        草稿载入于 <DateTime unixSeconds={state.page.now} />
      </span>
      <a className="preview-banner__exit" href={`${PREVIEW_EXIT}?path=${encodeURIComponent(state.page.path)}`}>
        退出预览
      </a>
    </div>
  );
}
