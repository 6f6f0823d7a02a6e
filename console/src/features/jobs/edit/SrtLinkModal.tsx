import { useRef, useState } from 'react';
import { Field } from '../../../components/form/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { SRT_LISTENER_STREAM_ID } from '../../../../../openapi/schemas/jobs.ts';
import type { OutputValue } from './jobFormModel.ts';
import { StreamIdModal } from './StreamIdModal.tsx';

type KeyType = NonNullable<OutputValue['secured']>['keyType'];
const PBKEYLEN: Record<KeyType, number> = { AES_128: 16, AES_192: 24, AES_256: 32 };

/** The SRT link as the editor holds it (spec 01 §3 "SRT link"). */
export interface SrtLink {
  mode: 'caller' | 'listener';
  host: string;
  port: string;
  streamid: string;
  encrypted: boolean;
  keyType: KeyType;
  passphrase: string;
  latency: string;
  extra: string;
}

/** The link of an SRT output: host and port from its URL (a listener's port from `port`), the rest from its fields. */
export function linkOf(output: OutputValue): SrtLink {
  let host = '';
  let port = output.port !== undefined ? String(output.port) : '';
  let extra = '';
  if (output.uri) {
    try {
      const url = new URL(output.uri);
      host = url.hostname;
      if (url.port && !(output.srtMode === 'listener' && port)) port = url.port;
      extra = url.search.replace(/^\?/, '');
    } catch {
      // Not a URL yet: the editor starts empty.
    }
  }
  if (output.srtMode === 'listener' && host === '0.0.0.0') host = '';
  return {
    mode: output.srtMode,
    host,
    port,
    streamid: output.srtStreamId ?? '',
    encrypted: Boolean(output.secured),
    keyType: output.secured?.keyType ?? 'AES_128',
    passphrase: output.secured?.passphrase ?? '',
    latency: output.srtLatencyMs !== undefined ? String(output.srtLatencyMs) : '',
    extra,
  };
}

/** The rules of spec 01 §5 for an SRT link; messages name the field. */
export function checkLink(link: SrtLink): Partial<Record<keyof SrtLink, string>> {
  const errors: Partial<Record<keyof SrtLink, string>> = {};
  const port = Number(link.port);
  if (link.port.trim() === '') errors.port = 'Port is required';
  else if (!Number.isInteger(port) || port < 1 || port > 65536) errors.port = 'Port must be between 1 and 65536';
  if (link.mode === 'caller' && link.host.trim() === '') errors.host = 'Host is required';
  else if (link.host && !/^[A-Za-z0-9.:[\]_-]+$/.test(link.host)) errors.host = 'Host must be a host name or an IP address';
  if (link.encrypted) {
    if (link.passphrase === '') errors.passphrase = 'Passphrase is required';
    else if (link.passphrase.length < 10 || link.passphrase.length > 79) errors.passphrase = 'Passphrase must be 10 to 79 characters';
  }
  if (link.latency.trim() !== '' && !(Number.isInteger(Number(link.latency)) && Number(link.latency) >= 0)) errors.latency = 'Latency must be at least 0';
  if (/[\s#]/.test(link.extra)) errors.extra = 'Extra params look like key=value&key=value';
  else if (link.mode === 'listener' && new URLSearchParams(link.extra.trim().replace(/^\?/, '')).has('streamid')) errors.extra = SRT_LISTENER_STREAM_ID;
  return errors;
}

/** The output's fields for a checked link. */
export function applyLink(output: OutputValue, link: SrtLink): OutputValue {
  const query = link.extra.trim() ? `?${link.extra.trim().replace(/^\?/, '')}` : '';
  const host = link.mode === 'listener' ? link.host.trim() || '0.0.0.0' : link.host.trim();
  return {
    ...output,
    srtMode: link.mode,
    uri: `srt://${host}:${Number(link.port)}${query}`,
    port: link.mode === 'listener' ? Number(link.port) : undefined,
    srtStreamId: link.mode === 'caller' && link.streamid.trim() ? link.streamid.trim() : undefined,
    srtLatencyMs: link.latency.trim() === '' ? undefined : Number(link.latency),
    secured: link.encrypted ? { keyType: link.keyType, passphrase: link.passphrase } : undefined,
  };
}

/** The link as one line, e.g. "srt://10.0.0.5:9000 · caller · latency 200 ms · encrypted". */
export function describeLink(output: OutputValue): string {
  if (!output.uri && output.port === undefined) return 'Not set';
  const link = linkOf(output);
  const parts = [link.mode === 'listener' ? `listening on port ${link.port}` : `srt://${link.host}:${link.port}`, link.mode];
  if (link.latency) parts.push(`latency ${link.latency} ms`);
  if (link.mode === 'caller' && link.streamid) parts.push(`stream id ${link.streamid}`);
  if (link.encrypted) parts.push(`encrypted (pbkeylen ${PBKEYLEN[link.keyType]})`);
  return parts.join(' · ');
}

/** The SRT link editor (spec 01 §2.11). */
export function SrtLinkModal({ output, onApply, onClose }: { output: OutputValue; onApply: (next: OutputValue) => void; onClose: () => void }) {
  const [link, setLink] = useState<SrtLink>(() => linkOf(output));
  const [touched, setTouched] = useState<Partial<Record<keyof SrtLink, boolean>>>({});
  const [tried, setTried] = useState(false);
  const [generator, setGenerator] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const errors = checkLink(link);
  const valid = Object.keys(errors).length === 0;
  const change = <K extends keyof SrtLink>(key: K, value: SrtLink[K]) => setLink((current) => ({ ...current, [key]: value }));
  const errorOf = (key: keyof SrtLink) => (tried || touched[key] ? errors[key] : undefined);
  const blur = (key: keyof SrtLink) => () => setTouched((t) => ({ ...t, [key]: true }));
  const apply = () => {
    setTried(true);
    if (valid) onApply(applyLink(output, link));
  };

  return (
    <>
      <Modal
        title="SRT link"
        size="medium"
        onClose={onClose}
        onEnter={generator ? undefined : apply}
        initialFocus={first}
        footer={
          <>
            <button type="button" className="button button-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="button" disabled={tried && !valid} onClick={apply}>
              Apply
            </button>
          </>
        }
      >
        <div className="modal-grid">
          <div className="field modal-grid-full">
            <span className="field-label" id="srt-mode-label">
              Mode
            </span>
            <div className="radio-row" role="radiogroup" aria-labelledby="srt-mode-label">
              {(['caller', 'listener'] as const).map((mode) => (
                <label key={mode} className="radio-label">
                  <input type="radio" name="srt-mode" checked={link.mode === mode} onChange={() => change('mode', mode)} />
                  {mode === 'caller' ? 'Caller' : 'Listener'}
                </label>
              ))}
            </div>
          </div>
          <Field label="Host" required={link.mode === 'caller'} error={errorOf('host')} hint={link.mode === 'listener' ? 'Empty: every interface.' : undefined}>
            <input ref={first} value={link.host} placeholder={link.mode === 'listener' ? '0.0.0.0' : '10.0.0.5'} onChange={(e) => change('host', e.target.value)} onBlur={blur('host')} />
          </Field>
          <Field label="Port" required error={errorOf('port')}>
            <input type="number" min={1} max={65536} value={link.port} onChange={(e) => change('port', e.target.value)} onBlur={blur('port')} />
          </Field>
          {link.mode === 'caller' && (
            <Field label="Stream id" error={errorOf('streamid')} className="modal-grid-full">
              <input value={link.streamid} onChange={(e) => change('streamid', e.target.value)} onBlur={blur('streamid')} />
            </Field>
          )}
          {link.mode === 'caller' && (
            <div className="modal-grid-full field-inline-action">
              <button type="button" className="link-button" onClick={() => setGenerator(true)}>
                Generate stream id ...
              </button>
            </div>
          )}
          <Field label="Latency (ms)" error={errorOf('latency')}>
            <input type="number" min={0} value={link.latency} placeholder="120" onChange={(e) => change('latency', e.target.value)} onBlur={blur('latency')} />
          </Field>
          <Field label="Extra params" error={errorOf('extra')}>
            <input value={link.extra} placeholder="maxbw=0&oheadbw=25" onChange={(e) => change('extra', e.target.value)} onBlur={blur('extra')} />
          </Field>
          <div className="field field-check modal-grid-full">
            <label className="check-label">
              <input type="checkbox" checked={link.encrypted} onChange={(e) => change('encrypted', e.target.checked)} />
              Encrypted
            </label>
          </div>
          {link.encrypted && (
            <>
              <Field label="Key length (pbkeylen)">
                <select value={link.keyType} onChange={(e) => change('keyType', e.target.value as KeyType)}>
                  {(Object.keys(PBKEYLEN) as KeyType[]).map((keyType) => (
                    <option key={keyType} value={keyType}>
                      {PBKEYLEN[keyType]} ({keyType.replace('_', '-')})
                    </option>
                  ))}
                </select>
              </Field>
              <Field label="Passphrase" required error={errorOf('passphrase')} hint="10 to 79 characters.">
                <input type="password" autoComplete="new-password" value={link.passphrase} onChange={(e) => change('passphrase', e.target.value)} onBlur={blur('passphrase')} />
              </Field>
            </>
          )}
        </div>
      </Modal>
      {generator && (
        <StreamIdModal
          onClose={() => setGenerator(false)}
          onApply={(streamId) => {
            change('streamid', streamId);
            setGenerator(false);
          }}
        />
      )}
    </>
  );
}
