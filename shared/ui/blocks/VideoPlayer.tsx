/**
 * An HTML5 player for HLS streams. Browsers that play HLS natively (Safari) get the playlist as the source;
 * others load hls.js on demand, so its code ships only with the pages that show a player. Its light build is
 * enough (the streams are plain HLS: no subtitles, alternate audio tracks or DRM) at about half the size.
 */
import { useEffect, useRef, useState } from 'react';
import { oneWidthSrc, POSTER_WIDTH } from '../../image-sizes';
import { useImages } from '../context';

export function VideoPlayer({ src, poster, title }: { src: string; poster: string; title: string }) {
  const images = useImages();
  const ref = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const video = ref.current;
    if (!video || !src) return;
    if (video.canPlayType('application/vnd.apple.mpegurl')) {
      video.src = src;
      return;
    }
    let destroyed = false;
    let destroy = () => undefined as void;
    void import('hls.js/light').then(
      ({ default: Hls }) => {
        if (destroyed) return;
        if (!Hls.isSupported()) {
          setFailed(true);
          return;
        }
        // No worker: the page's CSP allows scripts by hash or nonce only, and hls.js would start its worker from a blob.
        const hls = new Hls({ enableWorker: false });
        hls.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) setFailed(true);
        });
        hls.loadSource(src);
        hls.attachMedia(video);
        destroy = () => hls.destroy();
      },
      () => {
        // The player's chunk failed to load: the reader sees the player's failure message, not a silent black box.
        if (!destroyed) setFailed(true);
      },
    );
    return () => {
      destroyed = true;
      destroy();
    };
  }, [src]);

  return (
    <figure className="player">
      <video ref={ref} controls playsInline preload="metadata" poster={oneWidthSrc(poster, images, POSTER_WIDTH)} aria-label={title} width={960} height={540} />
      {failed && <figcaption className="player__error">视频暂时无法播放，请稍后再试。</figcaption>}
    </figure>
  );
}
