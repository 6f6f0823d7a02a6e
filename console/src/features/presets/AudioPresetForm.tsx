import { useCallback } from 'react';
import { AudioPresetInput } from '../../../../openapi/schemas/presets.ts';
import { useErrorAlert } from '../../components/dialogs.tsx';
import { Field } from '../../components/form/Field.tsx';
import { FormFooter, SubmitButton } from '../../components/form/FormFooter.tsx';
import { FieldErrorsError, useZodForm } from '../../components/form/useZodForm.ts';
import { Card } from '../../components/Page.tsx';
import { fieldErrorsOf, messageOf, type Schemas } from '../../data/client.ts';
import { usePresetCodecs } from '../../data/presets/queries.ts';
import { audioPayload, CHANNEL_CHOICES, COMMON_SAMPLE_RATES, refineAudio, type AudioPresetValues } from './presetFormModel.ts';
import './presets.css';

export interface AudioPresetFormProps {
  initial: AudioPresetValues;
  isNew: boolean;
  readOnly: boolean;
  title: string;
  save: (payload: Schemas['AudioPresetInput']) => Promise<AudioPresetValues | void>;
}

/** The audio preset form: name, codec, bitrate (with the codec's hint, Opus's limits), channels and sample rate. */
export function AudioPresetForm({ initial, isNew, readOnly, title, save }: AudioPresetFormProps) {
  const codecs = usePresetCodecs();
  const showError = useErrorAlert();
  const codecOf = useCallback((name: string) => codecs.data?.audio.find((c) => c.name === name), [codecs.data]);
  const refine = useCallback((values: AudioPresetValues) => (codecs.data ? refineAudio(values, codecOf(values.audioCodec)) : {}), [codecs.data, codecOf]);
  const form = useZodForm<AudioPresetValues>({ initial, schema: AudioPresetInput, toPayload: audioPayload, refine, saved: !isNew });
  const { values, set, setValues, touch, errorOf } = form;
  const codec = codecOf(values.audioCodec);
  const sampleRates = codec?.sampleRates.length ? codec.sampleRates : COMMON_SAMPLE_RATES;
  const channels = CHANNEL_CHOICES.filter((c) => codec?.maxChannels == null || Number(c.value) <= codec.maxChannels);

  const submit = form.formProps(async (payload) => {
    try {
      return await save(payload as Schemas['AudioPresetInput']);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (Object.keys(fields).length > 0) throw new FieldErrorsError(messageOf(error), fields);
      void showError(messageOf(error));
      throw error;
    }
  });

  /** A codec that does not take the chosen sample rate moves to 48000 Hz, or its first. */
  const setCodec = (name: string) =>
    setValues((current) => {
      const next = codecOf(name);
      const rates = next?.sampleRates ?? [];
      const sampleRate = !rates.length || rates.includes(Number(current.sampleRate)) ? current.sampleRate : String(rates.includes(48000) ? 48000 : rates[0]);
      return { ...current, audioCodec: name, sampleRate };
    });

  return (
    <form className="form" {...submit} aria-label={title}>
      <fieldset className="form-fieldset" disabled={readOnly}>
        <Card title="Audio preset">
          <div className="form-grid">
            <Field label="Name" required error={errorOf('name')}>
              <input name="name" value={values.name} maxLength={200} autoComplete="off" onChange={(e) => set('name', e.target.value)} onBlur={() => touch('name')} />
            </Field>
            <Field label="Audio codec" required error={errorOf('audioCodec')}>
              <select name="audioCodec" value={values.audioCodec} onChange={(e) => setCodec(e.target.value)} onBlur={() => touch('audioCodec')}>
                <option value="">{codecs.isPending ? 'Loading ...' : 'Select codec'}</option>
                {(codecs.data?.audio ?? []).map((c) => (
                  <option key={c.name} value={c.name}>
                    {c.label}
                  </option>
                ))}
                {values.audioCodec && codecs.data && !codec && <option value={values.audioCodec}>{values.audioCodec}</option>}
              </select>
            </Field>
            <Field label="Audio bitrate (kbit/s)" required error={errorOf('audioBitrate')} hint={codec?.hint ?? undefined}>
              <input
                name="audioBitrate"
                type="number"
                inputMode="numeric"
                min={codec?.minBitrate ?? 1}
                max={codec?.maxBitrate ?? 999999}
                step={1}
                value={values.audioBitrate}
                onChange={(e) => set('audioBitrate', e.target.value)}
                onBlur={() => touch('audioBitrate')}
              />
            </Field>
            <Field label="Channels" error={errorOf('channels')}>
              <select name="channels" value={values.channels} onChange={(e) => set('channels', e.target.value)} onBlur={() => touch('channels')}>
                <option value="">As the source</option>
                {channels.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Sample rate (Hz)" required error={errorOf('sampleRate')}>
              <select name="sampleRate" value={values.sampleRate} onChange={(e) => set('sampleRate', e.target.value)} onBlur={() => touch('sampleRate')}>
                <option value="">Select sample rate</option>
                {sampleRates.map((rate) => (
                  <option key={rate} value={String(rate)}>
                    {rate}
                  </option>
                ))}
                {values.sampleRate && !sampleRates.includes(Number(values.sampleRate)) && <option value={values.sampleRate}>{values.sampleRate}</option>}
              </select>
            </Field>
          </div>
        </Card>
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
