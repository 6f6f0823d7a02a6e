import { WatermarkInput } from '../../../../openapi/schemas/watermarks.ts';
import { useErrorAlert } from '../../components/dialogs.tsx';
import { Field } from '../../components/form/Field.tsx';
import { FormFooter, SubmitButton } from '../../components/form/FormFooter.tsx';
import { FieldErrorsError, useZodForm } from '../../components/form/useZodForm.ts';
import { Card } from '../../components/Page.tsx';
import { fieldErrorsOf, messageOf, type Schemas } from '../../data/client.ts';
import { DebouncedNumberInput } from './DebouncedNumberInput.tsx';
import { WatermarkPreview } from './WatermarkPreview.tsx';
import { WatermarkUploader } from './WatermarkUploader.tsx';
import {
  frameOfValues,
  maxPositionOfValues,
  RESOLUTION_CHOICES,
  refineWatermark,
  scaledOfValues,
  watermarkPayload,
  withImage,
  withSize,
  type WatermarkValues,
} from './watermarkFormModel.ts';
import './watermarks.css';

export interface WatermarkFormProps {
  initial: WatermarkValues;
  isNew: boolean;
  readOnly: boolean;
  title: string;
  save: (payload: Schemas['WatermarkInput']) => Promise<WatermarkValues | void>;
}

/** A 0-100 percentage: a slider and a (debounced) number. */
function PercentInput({ label, value, onCommit, onBlur }: { label: string; value: string; onCommit: (value: string) => void; onBlur: () => void }) {
  return (
    <div className="percent-input">
      <input type="range" min={0} max={100} step={1} value={value === '' ? 0 : value} aria-label={`${label} slider`} onChange={(e) => onCommit(e.target.value)} onBlur={onBlur} />
      <DebouncedNumberInput min={0} max={100} step={1} value={value} aria-label={label} onCommit={onCommit} onBlur={onBlur} />
      <span className="muted">%</span>
    </div>
  );
}

/** The watermark form: the image (upload), then transparency, size, resolution and position, with a live preview. */
export function WatermarkForm({ initial, isNew, readOnly, title, save }: WatermarkFormProps) {
  const showError = useErrorAlert();
  const form = useZodForm<WatermarkValues>({ initial, schema: WatermarkInput, toPayload: watermarkPayload, refine: refineWatermark, saved: !isNew });
  const { values, set, setValues, touch, errorOf } = form;
  const max = maxPositionOfValues(values);
  const frame = frameOfValues(values);
  const scaled = scaledOfValues(values);

  const submit = form.formProps(async (payload) => {
    try {
      return await save(payload as Schemas['WatermarkInput']);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (Object.keys(fields).length > 0) throw new FieldErrorsError(messageOf(error), fields);
      void showError(messageOf(error));
      throw error;
    }
  });

  const setSize = (field: 'scalePercent' | 'scaledWidth' | 'scaledHeight', text: string) => {
    setValues((current) => withSize(current, field, text));
    touch(field === 'scalePercent' ? 'scalePercent' : field === 'scaledWidth' ? 'scaledImage.width' : 'scaledImage.height');
  };
  const commit = (field: 'alpha' | 'resolutionWidth' | 'resolutionHeight' | 'x' | 'y', touched: string) => (text: string) => {
    set(field, text);
    touch(touched);
  };

  return (
    <form className="form" {...submit} aria-label={title}>
      <fieldset className="form-fieldset" disabled={readOnly}>
        <div className="watermark-layout">
          <div className="watermark-fields">
            <Card title="Image">
              <Field label="Name" required error={errorOf('name')}>
                <input name="name" value={values.name} maxLength={200} autoComplete="off" onChange={(e) => set('name', e.target.value)} onBlur={() => touch('name')} />
              </Field>
              <div className={`field${errorOf('file') ? ' has-error' : ''}`}>
                <span className="field-label">
                  File <span className="required-mark">*</span>
                </span>
                {values.file && values.image ? (
                  <span className="watermark-file">
                    <span className="cell-mono">{values.file}</span> <span className="muted">({values.image.width}x{values.image.height})</span>
                  </span>
                ) : (
                  <span className="muted">No image yet.</span>
                )}
                {!readOnly && (
                  <WatermarkUploader
                    chosen={values.file}
                    disabled={readOnly}
                    onChoose={(file) => {
                      setValues((current) => ({ ...withImage(current, file.file, { width: file.width, height: file.height }), name: current.name || file.originalName.replace(/\.[^.]+$/, '').slice(0, 100) }));
                      touch('file');
                    }}
                  />
                )}
                {errorOf('file') && (
                  <div className="field-error" role="alert">
                    {errorOf('file')}
                  </div>
                )}
              </div>
            </Card>

            <Card title="Placement">
              <div className="form-grid">
                <Field label="Transparency" error={errorOf('alpha')} hint="0 is opaque, 100 invisible.">
                  <PercentInput label="Transparency" value={values.alpha} onCommit={commit('alpha', 'alpha')} onBlur={() => touch('alpha')} />
                </Field>
                <Field label="Size" error={errorOf('scalePercent')} hint={values.image ? `Of the image's ${values.image.width}x${values.image.height}.` : undefined}>
                  <PercentInput label="Size" value={values.scalePercent} onCommit={(text) => setSize('scalePercent', text)} onBlur={() => touch('scalePercent')} />
                </Field>
                <Field label="Scaled width" error={errorOf('scaledImage.width')} hint={values.image ? `0 to ${values.image.width}` : undefined}>
                  <DebouncedNumberInput name="scaledWidth" min={0} max={values.image?.width} step={1} value={values.scaledWidth} onCommit={(text) => setSize('scaledWidth', text)} onBlur={() => touch('scaledImage.width')} />
                </Field>
                <Field label="Scaled height" error={errorOf('scaledImage.height')} hint={values.image ? `0 to ${values.image.height}` : undefined}>
                  <DebouncedNumberInput name="scaledHeight" min={0} max={values.image?.height} step={1} value={values.scaledHeight} onCommit={(text) => setSize('scaledHeight', text)} onBlur={() => touch('scaledImage.height')} />
                </Field>
                <Field label="Resolution" required error={errorOf('resolution.value')}>
                  <select name="resolution" value={values.resolution} onChange={(e) => set('resolution', e.target.value as WatermarkValues['resolution'])} onBlur={() => touch('resolution.value')}>
                    {RESOLUTION_CHOICES.map((r) => (
                      <option key={r.value} value={r.value}>
                        {r.label}
                      </option>
                    ))}
                  </select>
                </Field>
                <div className="field" aria-hidden="true" />
                {values.resolution === 'CUSTOM' && (
                  <>
                    <Field label="Custom width" required error={errorOf('resolution.width')}>
                      <DebouncedNumberInput name="resolutionWidth" min={0} step={1} value={values.resolutionWidth} onCommit={commit('resolutionWidth', 'resolution.width')} onBlur={() => touch('resolution.width')} />
                    </Field>
                    <Field label="Custom height" required error={errorOf('resolution.height')}>
                      <DebouncedNumberInput name="resolutionHeight" min={0} step={1} value={values.resolutionHeight} onCommit={commit('resolutionHeight', 'resolution.height')} onBlur={() => touch('resolution.height')} />
                    </Field>
                  </>
                )}
                <Field label="Position x" error={errorOf('x')} hint={`0 to ${max.x}`}>
                  <DebouncedNumberInput name="x" min={0} max={max.x} step={1} value={values.x} onCommit={commit('x', 'x')} onBlur={() => touch('x')} />
                </Field>
                <Field label="Position y" error={errorOf('y')} hint={`0 to ${max.y}`}>
                  <DebouncedNumberInput name="y" min={0} max={max.y} step={1} value={values.y} onCommit={commit('y', 'y')} onBlur={() => touch('y')} />
                </Field>
              </div>
            </Card>
          </div>

          <Card title="Preview" className="watermark-preview-card">
            <WatermarkPreview file={values.file} frame={frame} scaled={scaled} x={Number(values.x) || 0} y={Number(values.y) || 0} alpha={Math.min(100, Math.max(0, Number(values.alpha) || 0))} />
          </Card>
        </div>
      </fieldset>

      <FormFooter
        backTo="/my/watermarks"
        status={readOnly ? 'Read only: you may view watermarks but not change them.' : form.saving ? 'Saving ...' : !isNew && !form.isDirty ? 'All changes saved.' : !isNew && form.isDirty ? 'Unsaved changes.' : undefined}
      >
        {!readOnly && <SubmitButton isNew={isNew} saving={form.saving} disabled={!form.canSubmit} />}
      </FormFooter>
    </form>
  );
}
