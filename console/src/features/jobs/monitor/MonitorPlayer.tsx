import { useEffect, useRef, useState } from 'react';
import { attachPlayer, type PlayerFailure, type PlayerType } from './players.ts';

/**
 * The video player of the Monitor tab: the right player for the delivery's type, loaded on
 * demand, muted and playing as soon as it can. A failure goes to `onFailure` (the tab's alert);
 * while the job runs (`waitForStream`) a playlist not written yet is waited for a while first.
 */
export function MonitorPlayer({ type, url, waitForStream, onFailure }: { type: PlayerType; url: string; waitForStream: boolean; onFailure: (failure: PlayerFailure) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [loading, setLoading] = useState(true);
  const report = useRef(onFailure);
  report.current = onFailure;

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    let detach: (() => void) | undefined;
    let gone = false;
    setLoading(true);
    attachPlayer(type, element, url, (failure) => !gone && report.current(failure), { waitForStream })
      .then((done) => {
        if (gone) done();
        else detach = done;
      })
      .catch((error: Error) => !gone && report.current({ code: 'LOAD', message: `The player could not be loaded: ${error.message}` }))
      .finally(() => !gone && setLoading(false));
    return () => {
      gone = true;
      detach?.();
    };
  }, [type, url, waitForStream]);

  return (
    <div className="monitor-player">
      <video ref={video} controls muted autoPlay playsInline aria-label="Monitor player" data-testid="monitor-video" />
      {loading && <span className="monitor-player-loading">Loading ...</span>}
    </div>
  );
}
