// hls.js ships its light build (no subtitles, alternate audio or DRM: nothing a monitor needs) without types of its own.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
}
