import { useId, useRef, type KeyboardEvent } from 'react';
import { Switch } from '../../../components/Switch.tsx';
import { VIDEO_TYPE_OPTIONS } from '../jobLabels.ts';
import { AdvancedTab } from './AdvancedTab.tsx';
import { AudioTab, audioCount } from './AudioTab.tsx';
import { useJobEdit } from './context.ts';
import { FieldRow, SelectField, TextField } from './fields.tsx';
import { InputTab } from './InputTab.tsx';
import { OutputTab } from './OutputTab.tsx';
import { SubtitlesTab } from './SubtitlesTab.tsx';
import { VideoTab, videoCount } from './VideoTab.tsx';

export type SubTab = 'input' | 'output' | 'video' | 'audio' | 'subtitles' | 'advanced';

/** Which fields each sub-tab holds: a message under one of them marks the sub-tab. */
export const SUB_TAB_FIELDS: Record<SubTab, readonly string[]> = {
  input: ['input', 'failover'],
  output: ['outputs'],
  video: ['relayVideo', 'preset', 'videoResolution', 'width', 'height', 'aspectRatio', 'framerate', 'keyInt', 'deinterlaceMode', 'deinterlaceMethod', 'deinterlaceField', 'adaptive', 'countOfProfiles', 'profiles', 'watermark', 'replaceVideo', 'replaceVideoFile', 'delayTime'],
  audio: ['audioSetting', 'muxAudioAndVideo', 'replaceAudio', 'replaceAudioFile'],
  subtitles: ['subtitles'],
  advanced: ['noVideo', 'noSound', 'restartAttempts', 'lipSyncRestart', 'logLevel', 'logTarget', 'logMaxSizeInMegaBytes', 'node', 'statistics', 'statisticsDays', 'alarmed', 'features'],
};

/** The sub-tabs of the kind, in order, with their labels (spec 01 §2.4 for relays, §2.6 for encodings). */
export function subTabsOf(kind: 'relay' | 'encoding', values: Parameters<typeof videoCount>[0] & Parameters<typeof audioCount>[0] & { outputs: readonly unknown[]; subtitles: readonly unknown[] }) {
  if (kind === 'relay')
    return [
      { key: 'input', label: 'Input' },
      { key: 'output', label: 'Output' },
      { key: 'subtitles', label: 'Subtitles' },
      { key: 'advanced', label: 'Advanced Setting' },
    ] as const satisfies readonly { key: SubTab; label: string }[];
  return [
    { key: 'input', label: 'Input' },
    { key: 'output', label: `Output (${values.outputs.length})` },
    { key: 'video', label: `Video (${videoCount(values)})` },
    { key: 'audio', label: `Audio (${audioCount(values)})` },
    { key: 'subtitles', label: `Subtitles (${values.subtitles.length})` },
    { key: 'advanced', label: 'Advanced Settings' },
  ] as const satisfies readonly { key: SubTab; label: string }[];
}

/** The name, the video type and the saved lock: above the sub-tabs, on every one of them. */
function Identity({ lockDisabled, onLock }: { lockDisabled: boolean; onLock: (on: boolean) => void }) {
  const { form, disabled } = useJobEdit();
  const lockId = useId();
  return (
    <div className="job-identity">
      <fieldset className="form-fieldset" disabled={disabled}>
        <FieldRow>
          <TextField path="name" label="Name" required keepEmpty />
          <SelectField path="videoType" label="Type" options={VIDEO_TYPE_OPTIONS} />
        </FieldRow>
      </fieldset>
      <div className="job-lock">
        <Switch id={lockId} checked={form.values.saved} onChange={onLock} label="Saved" disabled={lockDisabled} />
        <label htmlFor={lockId}>Saved</label>
        <span className="field-hint">{form.values.saved ? 'The fields are locked.' : 'Lock the fields against changes.'}</span>
      </div>
    </div>
  );
}

/** The Details tab: identity, then the sub-tabs of the kind, each marked when it holds a message. */
export function JobDetails({ subTab, onSubTab, lockDisabled, onLock }: { subTab: SubTab; onSubTab: (tab: SubTab) => void; lockDisabled: boolean; onLock: (on: boolean) => void }) {
  const { form, kind, disabled } = useJobEdit();
  const tabs = subTabsOf(kind, form.values);
  const list = useRef<HTMLDivElement>(null);
  const baseId = useId();
  const current = tabs.some((t) => t.key === subTab) ? subTab : 'input';

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft' && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const at = tabs.findIndex((t) => t.key === current);
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : (at + (event.key === 'ArrowRight' ? 1 : -1) + tabs.length) % tabs.length;
    onSubTab(tabs[next].key);
    list.current?.querySelectorAll<HTMLElement>('[role="tab"]')[next]?.focus();
  }

  return (
    <>
      <Identity lockDisabled={lockDisabled} onLock={onLock} />
      <div className="sub-tabs" role="tablist" aria-label="Details" ref={list} onKeyDown={onKeyDown}>
        {tabs.map((tab) => {
          const marks = form.shownErrorsUnder(SUB_TAB_FIELDS[tab.key]);
          return (
            <button
              key={tab.key}
              type="button"
              role="tab"
              id={`${baseId}-${tab.key}`}
              aria-selected={current === tab.key}
              aria-controls={`${baseId}-panel`}
              tabIndex={current === tab.key ? 0 : -1}
              className={`sub-tab${current === tab.key ? ' is-current' : ''}${marks > 0 ? ' has-error' : ''}`}
              onClick={() => onSubTab(tab.key)}
            >
              {tab.label}
              {marks > 0 && (
                <span className="sub-tab-mark" title={`${marks} field${marks === 1 ? '' : 's'} to correct`}>
                  <span className="visually-hidden">, {marks} to correct</span>
                </span>
              )}
            </button>
          );
        })}
      </div>
      <div className="sub-tab-panel" role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-${current}`}>
        <fieldset className="form-fieldset" disabled={disabled}>
          {current === 'input' && <InputTab />}
          {current === 'output' && <OutputTab />}
          {current === 'video' && <VideoTab />}
          {current === 'audio' && <AudioTab />}
          {current === 'subtitles' && <SubtitlesTab />}
          {current === 'advanced' && <AdvancedTab />}
        </fieldset>
      </div>
    </>
  );
}
