/**
 * The players of the Monitor tab. hls.js (HLS and CMAF's HLS) and mpegts.js (MPEG-TS over HTTP)
 * are large: they are imported here, on demand, so they load only when a Monitor tab plays
 * something and never with the console itself (see console/vite.config.ts, which keeps them out
 * of the shared vendor chunk).
 */

export interface PlayerFailure {
  code: string | number;
  message: string;
}

export type PlayerType = 'hls' | 'dash' | 'mpegts';

/** Stops playback and frees what the player holds. */
export type Detach = () => void;

const MEDIA_ERRORS: Record<number, string> = {
  1: 'The playback was aborted.',
  2: 'A network error stopped the download.',
  3: 'The media could not be decoded.',
  4: 'The media or its format is not supported.',
};

/** What the video element itself reports when it fails (native HLS, or a source hls.js could not catch). */
export function mediaElementFailure(video: HTMLVideoElement): PlayerFailure {
  const error = video.error;
  const code = error?.code ?? 0;
  return { code, message: error?.message || MEDIA_ERRORS[code] || 'The media could not be played.' };
}

export interface PlayerOptions {
  /**
   * The job runs: a playlist that is not there yet (404) is being written. Asked again every second
   * for up to MANIFEST_WAIT_SECONDS before it counts as a failure (an ABR master playlist appears only
   * after the first segments of every rendition).
   */
  waitForStream?: boolean;
}

const MANIFEST_WAIT_SECONDS = 30;

function play(video: HTMLVideoElement): void {
  // Autoplay of a muted video is allowed; a refusal (a browser policy) leaves the play button.
  void video.play().catch(() => undefined);
}

async function attachHls(video: HTMLVideoElement, url: string, onFailure: (failure: PlayerFailure) => void, options: PlayerOptions): Promise<Detach> {
  const { default: Hls } = await import('hls.js/light');
  if (!Hls.isSupported()) {
    if (!video.canPlayType('application/vnd.apple.mpegurl')) {
      onFailure({ code: 'UNSUPPORTED', message: 'This browser cannot play HLS: it has neither Media Source Extensions nor native HLS.' });
      return () => undefined;
    }
    const onError = () => onFailure(mediaElementFailure(video));
    video.addEventListener('error', onError);
    video.src = url;
    play(video);
    return () => {
      video.removeEventListener('error', onError);
      video.removeAttribute('src');
      video.load();
    };
  }
  const hls = new Hls({ liveDurationInfinity: true, backBufferLength: 30 });
  let waited = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (!data.fatal) return;
    const status = data.response?.code;
    if (options.waitForStream && status === 404 && data.details === Hls.ErrorDetails.MANIFEST_LOAD_ERROR && waited < MANIFEST_WAIT_SECONDS) {
      waited += 1;
      retry = setTimeout(() => hls.loadSource(url), 1000);
      return;
    }
    const reason = data.error?.message ?? data.reason;
    onFailure({ code: status && status > 0 ? status : data.details, message: `${data.type}: ${data.details}${reason ? ` (${reason})` : ''}` });
    hls.destroy();
  });
  hls.on(Hls.Events.MANIFEST_PARSED, () => play(video));
  hls.loadSource(url);
  hls.attachMedia(video);
  return () => {
    clearTimeout(retry);
    hls.destroy();
  };
}

async function attachMpegTs(video: HTMLVideoElement, url: string, onFailure: (failure: PlayerFailure) => void): Promise<Detach> {
  const { default: mpegts } = await import('mpegts.js');
  if (!mpegts.getFeatureList().mseLivePlayback) {
    onFailure({ code: 'UNSUPPORTED', message: 'This browser cannot play a live MPEG-TS stream: it lacks Media Source Extensions.' });
    return () => undefined;
  }
  mpegts.LoggingControl.enableAll = false;
  const player = mpegts.createPlayer({ type: 'mpegts', isLive: true, url }, { enableStashBuffer: false, liveBufferLatencyChasing: true, lazyLoad: false });
  player.on(mpegts.Events.ERROR, (type: string, detail: string, info?: { code?: number; msg?: string }) => {
    onFailure({ code: info?.code && info.code > 0 ? info.code : detail, message: `${type}: ${detail}${info?.msg ? ` (${info.msg})` : ''}` });
  });
  player.attachMediaElement(video);
  player.load();
  play(video);
  return () => {
    player.pause();
    player.unload();
    player.detachMediaElement();
    player.destroy();
  };
}

/** Plays `url` in `video` with the player its type needs; DASH has none here (the tab shows its URL). */
export async function attachPlayer(type: PlayerType, video: HTMLVideoElement, url: string, onFailure: (failure: PlayerFailure) => void, options: PlayerOptions = {}): Promise<Detach> {
  if (type === 'hls') return attachHls(video, url, onFailure, options);
  if (type === 'mpegts') return attachMpegTs(video, url, onFailure);
  return () => undefined;
}
