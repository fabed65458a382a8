// hls.js ships its light build (no subtitles, alternate audio, DRM or CMCD) without typings of its own; its API is
// the full build's, so the full build's types describe it.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
}
