import { useCallback, useMemo } from 'react';
import { VideoPresetInput } from '../../../../openapi/schemas/presets.ts';
import { useErrorAlert } from '../../components/dialogs.tsx';
import { Field } from '../../components/form/Field.tsx';
import { FormFooter, SubmitButton } from '../../components/form/FormFooter.tsx';
import { FieldErrorsError, useZodForm } from '../../components/form/useZodForm.ts';
import { Card } from '../../components/Page.tsx';
import { Switch } from '../../components/Switch.tsx';
import { fieldErrorsOf, messageOf, type Schemas } from '../../data/client.ts';
import { useAudioPresetList, usePresetCodecs } from '../../data/presets/queries.ts';
import { CodecOptionField } from './CodecOptionField.tsx';
import { refineVideo, videoPayload, type VideoPresetValues } from './presetFormModel.ts';
import './presets.css';

export interface VideoPresetFormProps {
  initial: VideoPresetValues;
  isNew: boolean;
  readOnly: boolean;
  title: string;
  save: (payload: Schemas['VideoPresetInput']) => Promise<VideoPresetValues | void>;
}

/** The video preset form: name, codec (GPU encoders behind the GPU switch), bitrate, audio preset, and the codec's options. */
export function VideoPresetForm({ initial, isNew, readOnly, title, save }: VideoPresetFormProps) {
  const codecs = usePresetCodecs();
  const audioPresets = useAudioPresetList();
  const showError = useErrorAlert();
  const codecOf = useCallback((name: string) => codecs.data?.video.find((c) => c.name === name), [codecs.data]);
  const toPayload = useCallback((values: VideoPresetValues) => videoPayload(values, codecOf(values.videoCodec)?.options), [codecOf]);
  const refine = useCallback((values: VideoPresetValues) => (codecs.data ? refineVideo(values, codecOf(values.videoCodec)) : {}), [codecs.data, codecOf]);
  const form = useZodForm<VideoPresetValues>({ initial, schema: VideoPresetInput, toPayload, refine, saved: !isNew });
  const { values, set, setValues, touch, errorOf } = form;
  const codec = codecOf(values.videoCodec);
  const choices = useMemo(() => (codecs.data?.video ?? []).filter((c) => c.gpu === values.gpu), [codecs.data, values.gpu]);

  const submit = form.formProps(async (payload) => {
    try {
      return await save(payload as Schemas['VideoPresetInput']);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (Object.keys(fields).length > 0) throw new FieldErrorsError(messageOf(error), fields);
      void showError(messageOf(error));
      throw error;
    }
  });

  /** The GPU switch offers the other family of encoders; the codec moves to its first. */
  const setGpu = (gpu: boolean) =>
    setValues((current) => {
      const first = (codecs.data?.video ?? []).find((c) => c.gpu === gpu);
      const keep = codecOf(current.videoCodec)?.gpu === gpu;
      return { ...current, gpu, videoCodec: keep ? current.videoCodec : (first?.name ?? ''), parameters: keep ? current.parameters : {} };
    });
  /** Another codec has other options: the ones set are dropped. */
  const setCodec = (name: string) => setValues((current) => ({ ...current, videoCodec: name, parameters: name === current.videoCodec ? current.parameters : {} }));
  const setParameter = (name: string, value: string | boolean | undefined) =>
    setValues((current) => {
      const parameters = { ...current.parameters };
      if (value === undefined) delete parameters[name];
      else parameters[name] = value;
      return { ...current, parameters };
    });
  const hasGpuCodecs = (codecs.data?.video ?? []).some((c) => c.gpu);

  return (
    <form className="form" {...submit} aria-label={title}>
      <fieldset className="form-fieldset" disabled={readOnly}>
        <Card title="Video preset">
          <div className="form-grid">
            <Field label="Name" required error={errorOf('name')}>
              <input name="name" value={values.name} maxLength={200} autoComplete="off" onChange={(e) => set('name', e.target.value)} onBlur={() => touch('name')} />
            </Field>
            <div className="field field-switch">
              <span className="field-label">GPU</span>
              <Switch checked={values.gpu} onChange={setGpu} label="GPU" disabled={readOnly || (!hasGpuCodecs && !values.gpu)} />
              {!hasGpuCodecs && codecs.data && <span className="field-hint">The server's ffmpeg has no GPU encoder.</span>}
            </div>
            <Field label="Video codec" required error={errorOf('videoCodec') ?? errorOf('gpu')}>
              <select name="videoCodec" value={values.videoCodec} onChange={(e) => setCodec(e.target.value)} onBlur={() => touch('videoCodec')}>
                <option value="">{codecs.isPending ? 'Loading ...' : 'Select codec'}</option>
                {choices.map((c) => (
                  <option key={c.name} value={c.name}>
                    {c.label}
                  </option>
                ))}
                {values.videoCodec && !choices.some((c) => c.name === values.videoCodec) && <option value={values.videoCodec}>{values.videoCodec}</option>}
              </select>
            </Field>
            <Field label="Video bitrate (kbit/s)" required error={errorOf('videoBitrate')}>
              <input name="videoBitrate" type="number" inputMode="numeric" min={1} max={999999} step={1} value={values.videoBitrate} onChange={(e) => set('videoBitrate', e.target.value)} onBlur={() => touch('videoBitrate')} />
            </Field>
            <Field label="Audio preset" required error={errorOf('audioPreset')} hint={audioPresets.data?.total === 0 ? 'Create an audio preset first.' : undefined}>
              <select name="audioPreset" value={values.audioPreset} onChange={(e) => set('audioPreset', e.target.value)} onBlur={() => touch('audioPreset')}>
                <option value="">{audioPresets.isPending ? 'Loading ...' : 'Select audio preset'}</option>
                {(audioPresets.data?.items ?? []).map((p) => (
                  <option key={p.id} value={String(p.id)}>
                    {p.name}
                  </option>
                ))}
              </select>
            </Field>
            <div className="field field-switch">
              <span className="field-label">Advanced options</span>
              <Switch checked={values.advancedOption} onChange={(on) => set('advancedOption', on)} label="Advanced options" disabled={readOnly} />
            </div>
          </div>
        </Card>

        {values.advancedOption && (
          <Card title={codec ? `${codec.label} options` : 'Codec options'}>
            {!codec ? (
              <p className="muted">{codecs.isPending ? 'Loading the codec\'s options ...' : 'Choose a codec to set its options.'}</p>
            ) : codec.options.length === 0 ? (
              <p className="muted">The server's ffmpeg offers no option of {codec.name} here.</p>
            ) : (
              <div className="form-grid codec-options">
                {codec.options.map((option) => (
                  <CodecOptionField
                    key={`${codec.name}-${option.name}`}
                    option={option}
                    value={values.parameters[option.name]}
                    disabled={readOnly}
                    error={errorOf(`videoCodecParameters.${option.name}`)}
                    onChange={(value) => {
                      setParameter(option.name, value);
                      touch(`videoCodecParameters.${option.name}`);
                    }}
                    onBlur={() => touch(`videoCodecParameters.${option.name}`)}
                  />
                ))}
              </div>
            )}
          </Card>
        )}
      </fieldset>

      <FormFooter
        backTo="/my/presets"
        status={readOnly ? 'Read only: you may view presets but not change them.' : form.saving ? 'Saving ...' : !isNew && !form.isDirty ? 'All changes saved.' : !isNew && form.isDirty ? 'Unsaved changes.' : undefined}
      >
        {!readOnly && <SubmitButton isNew={isNew} saving={form.saving} disabled={!form.canSubmit} />}
      </FormFooter>
    </form>
  );
}
