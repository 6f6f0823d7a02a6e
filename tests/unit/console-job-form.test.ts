import { describe, expect, it } from 'vitest';
import { issuesByPath } from '../../console/src/components/form/useZodForm.ts';
import { mayAddTrack } from '../../console/src/features/jobs/edit/AudioTab.tsx';
import { jobTitle } from '../../console/src/features/jobs/edit/FooterBar.tsx';
import { jobSchema, newJobValues, newOutput, resizeProfiles, toPayload, type JobFormValues } from '../../console/src/features/jobs/edit/jobFormModel.ts';
import { newDrm, withEventSource } from '../../console/src/features/jobs/edit/OutputAdsDrmFields.tsx';
import { programLimit } from '../../console/src/features/jobs/edit/OutputFields.tsx';
import { applyLink, checkLink, linkOf } from '../../console/src/features/jobs/edit/SrtLinkModal.tsx';
import { streamIdOf } from '../../console/src/features/jobs/edit/StreamIdModal.tsx';
import { getAt, setAt } from '../../console/src/features/jobs/edit/useJobForm.ts';

function relay(change: (values: JobFormValues) => void = () => {}): JobFormValues {
  const values = newJobValues();
  values.name = 'relay-one';
  values.input = { ...values.input, uri: 'udp://127.0.0.1:5000' };
  values.outputs = [{ ...newOutput('udp', 0), uri: 'udp://127.0.0.1:6000' }];
  change(values);
  return values;
}

const errorsOf = (values: JobFormValues, kind: 'relay' | 'encoding' = 'relay') => issuesByPath(jobSchema(kind), toPayload(values, kind));

describe('the job form model', () => {
  it('sends a relay without the encoding fields, empty texts absent and outputs numbered', () => {
    const payload = toPayload(
      relay((v) => {
        v.outputs.push({ ...newOutput('udp', 7), uri: 'udp://127.0.0.1:6001', srtStreamId: '' });
      }),
      'relay',
    ) as Record<string, unknown>;
    expect(payload.preset).toBeUndefined();
    expect(payload.audioSetting).toBeUndefined();
    expect((payload.outputs as { position: number; srtStreamId?: string }[]).map((o) => o.position)).toEqual([0, 1]);
    expect((payload.outputs as { srtStreamId?: string }[])[1].srtStreamId).toBeUndefined();
    // The placeholders' fields stay empty: the server's defaults (10, NOTICE, FILE) apply.
    expect(payload.restartAttempts).toBeUndefined();
    expect(errorsOf(relay())).toEqual({});
  });

  it('checks with the API\'s rules and messages', () => {
    expect(errorsOf(relay((v) => (v.input = { ...v.input, uri: undefined })))).toEqual({ 'input.uri': 'Input uri is required' });
    expect(errorsOf(relay((v) => (v.name = '')))).toEqual({ name: 'Name is required' });
    const hls = relay((v) => (v.outputs = [{ ...newOutput('hls', 0), uri: 'live/a', pushBaseUrl: 'live/a/' }]));
    expect(errorsOf(hls)['outputs.0.pushBaseUrl']).toBe('Base URL should be different from stream location');
    expect(errorsOf(relay(), 'encoding').preset).toBe('Preset is required');
  });

  it('keeps the files a job names inside the storage root, as the API does', () => {
    const rule = 'must be a path inside the storage root: relative (no leading "/") and without ".."';
    const vod = (change: (values: JobFormValues) => void) =>
      relay((v) => {
        v.videoType = 'VOD';
        change(v);
      });
    expect(errorsOf(vod((v) => (v.subtitles = [{ type: 'FILE', fileName: '/etc/passwd.srt', default: false }])))).toEqual({ 'subtitles.0.fileName': `Subtitle file ${rule}` });
    expect(errorsOf(vod((v) => Object.assign(v, { replaceVideo: true, replaceVideoFile: '../slate.mp4' })), 'encoding')['replaceVideoFile']).toBe(`Replacement video file ${rule}`);
    expect(errorsOf(vod((v) => (v.subtitles = [{ type: 'FILE', fileName: 'subs/en.srt', default: false }])))).toEqual({});
  });

  it('asks for the DRM and the ad markers an output switches on, with the API\'s limits', () => {
    const hls = (change: Partial<ReturnType<typeof newOutput>>) => relay((v) => (v.outputs = [{ ...newOutput('hls', 0), uri: 'live/a', ...change }]));
    expect(errorsOf(hls({ drmEnabled: true, drm: newDrm() }))).toEqual({ 'outputs.0.drm.contentId': 'Content id is required', 'outputs.0.drm.drmSystems': 'Choose at least one DRM system' });
    expect(errorsOf(hls({ drmEnabled: true, drm: { ...newDrm(), contentId: 'ch-1', drmSystems: ['FAIRPLAY'] } }))).toEqual({});
    const scheduler = withEventSource(undefined, 'SCHEDULER');
    expect(errorsOf(hls({ adMarkersEnabled: true, adMarkers: scheduler }))).toEqual({
      'outputs.0.adMarkers.schedule.frequencyInMinutes': 'Scheduler frequency is required',
      'outputs.0.adMarkers.schedule.durationInSeconds': 'Scheduler duration is required',
    });
    expect(errorsOf(hls({ adMarkersEnabled: true, adMarkers: { ...scheduler, schedule: { frequencyInMinutes: 1441, durationInSeconds: 30 } } }))).toEqual({
      'outputs.0.adMarkers.schedule.frequencyInMinutes': 'Scheduler frequency must be 1 to 1440 minutes',
    });
    // Another source brings its own option and drops the one it replaces.
    expect(withEventSource({ ...scheduler, cueStyle: 'SCTE35', schedule: { frequencyInMinutes: 30, durationInSeconds: 60 } }, 'AD_DETECTION')).toEqual({ eventSource: 'AD_DETECTION', cueStyle: 'SCTE35', adDetectionOption: {} });
    expect(errorsOf(hls({ adMarkersEnabled: true }))).toEqual({ 'outputs.0.adMarkers': 'Ad markers need an event source' });
  });

  it('takes no stream id for an SRT listener, as the API does', () => {
    const listener = relay((v) => (v.outputs = [{ ...newOutput('srt', 0), srtMode: 'listener', port: 9000, srtStreamId: 'live/a' }]));
    expect(errorsOf(listener)).toEqual({ 'outputs.0.srtStreamId': 'Stream id is only for caller mode (hidden in listener mode)' });
  });

  it('makes the adaptive ladder the count asks for, one profile the main', () => {
    const three = resizeProfiles([], 3);
    expect(three.map((p) => `${p.width}x${p.height}`)).toEqual(['1920x1080', '1280x720', '854x480']);
    expect(three.filter((p) => p.main)).toHaveLength(1);
    const two = resizeProfiles([{ ...three[2], main: true }, three[1]], 2);
    expect(two.map((p) => p.width)).toEqual([854, 1280]);
    expect(resizeProfiles(two, 4).map((p) => p.width)).toEqual([854, 1280, 854, 640]);
    // Programs: one per profile of an adaptive encoding, else one.
    expect(programLimit({ adaptive: true, profiles: three }, 'encoding')).toBe(3);
    expect(programLimit({ adaptive: true, profiles: three }, 'relay')).toBe(1);
  });

  it('adds audio tracks only without an AUTO or ALL source and while not muxing', () => {
    expect(mayAddTrack([{ source: 'AUTO' }], false)).toBe(false);
    expect(mayAddTrack([{ source: 0 }], false)).toBe(true);
    expect(mayAddTrack([{ source: 0 }], true)).toBe(false);
    expect(mayAddTrack([{ source: 0 }, { source: 'ALL' }], false)).toBe(false);
  });

  it('sets and reads values by path without touching the rest', () => {
    const values = relay();
    const next = setAt(values, 'outputs.0.uri', 'udp://10.0.0.1:1');
    expect(getAt(next, 'outputs.0.uri')).toBe('udp://10.0.0.1:1');
    expect(values.outputs[0].uri).toBe('udp://127.0.0.1:6000');
    expect(Array.isArray(next.outputs)).toBe(true);
    expect(next.input).toBe(values.input);
  });

  it('names the screen as the spec spells it', () => {
    expect(jobTitle('relay', false, undefined)).toBe('New relay');
    expect(jobTitle('relay', true, undefined)).toBe('New template');
    expect(jobTitle('encoding', false, undefined)).toBe('New encoding');
    expect(jobTitle('relay', false, { id: 5, name: 'news' })).toBe('Relay news (id:5)');
    expect(jobTitle('relay', true, { id: 6, name: 'tpl' })).toBe('Template tpl (id:6)');
    expect(jobTitle('encoding', false, { id: 7, name: 'abr' })).toBe('Encoding abr (ID:7)');
  });
});

describe('the SRT link editor and the stream id generator', () => {
  it('checks a link as spec 01 §5 says', () => {
    const link = { ...linkOf(newOutput('srt', 0)), port: '65537', encrypted: true, passphrase: 'short', latency: '-1' };
    expect(checkLink(link)).toEqual({
      host: 'Host is required',
      port: 'Port must be between 1 and 65536',
      passphrase: 'Passphrase must be 10 to 79 characters',
      latency: 'Latency must be at least 0',
    });
    // A listener needs no host, and has no stream id, not even among the extra params.
    expect(checkLink({ ...link, mode: 'listener', port: '9000', encrypted: false, latency: '' })).toEqual({});
    expect(checkLink({ ...link, mode: 'listener', port: '9000', encrypted: false, latency: '', extra: 'latency=200&streamid=live/a' })).toEqual({ extra: 'Stream id is only for caller mode (hidden in listener mode)' });
  });

  it('writes the link into the output and reads it back', () => {
    const output = applyLink(newOutput('srt', 0), { mode: 'caller', host: '10.0.0.5', port: '9000', streamid: 'abc', encrypted: true, keyType: 'AES_256', passphrase: 'a-long-passphrase', latency: '200', extra: 'maxbw=0' });
    expect(output).toMatchObject({ uri: 'srt://10.0.0.5:9000?maxbw=0', srtMode: 'caller', srtStreamId: 'abc', srtLatencyMs: 200, secured: { keyType: 'AES_256', passphrase: 'a-long-passphrase' } });
    expect(linkOf(output)).toMatchObject({ host: '10.0.0.5', port: '9000', extra: 'maxbw=0', streamid: 'abc' });
    const listener = applyLink(output, { ...linkOf(output), mode: 'listener', host: '' });
    expect(listener).toMatchObject({ uri: 'srt://0.0.0.0:9000?maxbw=0', port: 9000, srtStreamId: undefined });
  });

  it('packs Pls Code and Stream into one id', () => {
    expect(streamIdOf(0, 0)).toBe(0);
    expect(streamIdOf(3, 5)).toBe(773);
    expect(streamIdOf(262143, 255)).toBe(67108863);
  });
});
