import { useRef, useState } from 'react';
import { Field } from '../../../components/form/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';

export const PLS_CODE_MAX = 262_143;
export const STREAM_MAX = 255;

/**
 * The stream id of a DVB-S2 multistream carrier, as Linux DVB's DTV_STREAM_ID packs it: the PLS
 * (gold) code in bits 8-25 and the input stream (ISI) in bits 0-7.
 */
export function streamIdOf(plsCode: number, stream: number): number {
  return plsCode * 256 + stream;
}

function check(text: string, label: string, max: number): string | undefined {
  if (text.trim() === '') return `${label} is required`;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > max) return `${label} must be between 0 and ${max}`;
  return undefined;
}

/** The stream id generator (spec 01 §2.11): Pls Code 0 to 262143 and Stream 0 to 255 give the id. */
export function StreamIdModal({ onApply, onClose }: { onApply: (streamId: string) => void; onClose: () => void }) {
  const [plsCode, setPlsCode] = useState('0');
  const [stream, setStream] = useState('0');
  const [touched, setTouched] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const errors = { plsCode: check(plsCode, 'Pls Code', PLS_CODE_MAX), stream: check(stream, 'Stream', STREAM_MAX) };
  const valid = !errors.plsCode && !errors.stream;
  const apply = () => {
    setTouched(true);
    if (!valid) return;
    onApply(String(streamIdOf(Number(plsCode), Number(stream))));
  };
  return (
    <Modal
      title="Stream id generator"
      onClose={onClose}
      onEnter={apply}
      initialFocus={first}
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button" disabled={!valid} onClick={apply}>
            Apply
          </button>
        </>
      }
    >
      <div className="modal-fields">
        <Field label="Pls Code" required error={touched || plsCode !== '0' ? errors.plsCode : undefined} hint={`0 to ${PLS_CODE_MAX}`}>
          <input ref={first} type="number" min={0} max={PLS_CODE_MAX} value={plsCode} onChange={(e) => setPlsCode(e.target.value)} onBlur={() => setTouched(true)} />
        </Field>
        <Field label="Stream" required error={touched || stream !== '0' ? errors.stream : undefined} hint={`0 to ${STREAM_MAX}`}>
          <input type="number" min={0} max={STREAM_MAX} value={stream} onChange={(e) => setStream(e.target.value)} onBlur={() => setTouched(true)} />
        </Field>
        <div className="generated-value" aria-live="polite">
          Stream id: <strong>{valid ? streamIdOf(Number(plsCode), Number(stream)) : '--'}</strong>
        </div>
      </div>
    </Modal>
  );
}
