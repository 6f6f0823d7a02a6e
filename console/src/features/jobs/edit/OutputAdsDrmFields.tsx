import { useId } from 'react';
import { AD_EVENT_SOURCES, DRM_PROVIDER_TYPES, DRM_SYSTEMS } from '../../../../../openapi/schemas/output-ads-drm.ts';
import { useJobEdit } from './context.ts';
import { CheckField, FieldRow, NumberField, SelectField, TextField } from './fields.tsx';
import type { OutputValue } from './jobFormModel.ts';

type Drm = NonNullable<OutputValue['drm']>;
type AdMarkers = NonNullable<OutputValue['adMarkers']>;
type EventSource = AdMarkers['eventSource'];

const PROVIDER_LABELS: Record<Drm['drmProvider']['providerType'], string> = { PALLYCON: 'Pallycon', EXPRESS_PLAY: 'Express Play', EZDRM: 'Ezdrm', IRDETO: 'Irdeto' };
const SYSTEM_LABELS: Record<Drm['drmSystems'][number], string> = { WIDEVINE: 'Widevine', PLAYREADY: 'PlayReady', FAIRPLAY: 'FairPlay' };
const SOURCE_LABELS: Record<EventSource, string> = { SCHEDULER: 'Scheduler', SMART_AD: 'Smart ad', AD_DETECTION: 'Ad detection' };
/** The option each event source fills in (spec 01 §3 adMarkers). */
const SOURCE_OPTION = { SCHEDULER: 'schedule', SMART_AD: 'smartAdOption', AD_DETECTION: 'adDetectionOption' } as const;

/** The DRM an output starts with when it is switched on: the provider of spec 01 §3, no content id yet. */
export function newDrm(): Drm {
  return { drmProvider: { providerType: 'IRDETO' }, drmSystems: [] } as unknown as Drm;
}

/** Ad markers when they are switched on or change source: the source's option to fill in, the other sources' dropped. */
export function withEventSource(current: AdMarkers | undefined, eventSource: EventSource): AdMarkers {
  const option = SOURCE_OPTION[eventSource];
  const { schedule: _schedule, smartAdOption: _smartAd, adDetectionOption: _detection, ...rest } = current ?? {};
  return { ...rest, eventSource, [option]: current?.[option] ?? {} } as AdMarkers;
}

/** The DRM systems of an output: a check box each, at least one (spec 01 §3 drmSystems). */
function DrmSystems({ index }: { index: number }) {
  const { form, disabled } = useJobEdit();
  const id = useId();
  const path = `outputs.${index}.drm.drmSystems`;
  const chosen: string[] = form.values.outputs[index]?.drm?.drmSystems ?? [];
  const error = form.errorOf(path);
  const toggle = (system: string, on: boolean) => {
    form.set(path, on ? DRM_SYSTEMS.filter((s) => s === system || chosen.includes(s)) : chosen.filter((s) => s !== system));
    form.touch(path);
  };
  return (
    <div className={`field${error ? ' has-error' : ''}`} role="group" aria-labelledby={id}>
      <span className="field-label" id={id}>
        DRM systems <span className="required-mark">*</span>
      </span>
      <div className="radio-row">
        {DRM_SYSTEMS.map((system) => (
          <label key={system} className="check-label">
            <input type="checkbox" name={`${path}.${system}`} checked={chosen.includes(system)} disabled={disabled} onChange={(e) => toggle(system, e.target.checked)} />
            {SYSTEM_LABELS[system]}
          </label>
        ))}
      </div>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

/**
 * The DRM and ad marker switches of a segmented output and, while on, their fields (spec 01 §3
 * Output drm and adMarkers, with the limits of §5). Switching one off drops its fields.
 */
export function OutputAdsDrmFields({ index, output, muxed }: { index: number; output: OutputValue; muxed: boolean }) {
  const { form } = useJobEdit();
  const at = (field: string) => `outputs.${index}.${field}`;
  const source = output.adMarkers?.eventSource;
  const objectError = (field: string) => form.errorOf(at(field)) ?? (form.submitted ? form.errors[at(field)] : undefined);
  return (
    <>
      <FieldRow>
        <CheckField
          path={at('drmEnabled')}
          label="DRM"
          disabled={muxed && !output.drmEnabled}
          hint={muxed ? 'DRM is unavailable with muxed audio and video.' : undefined}
          onChange={(on) => form.set(`outputs.${index}`, { ...output, drmEnabled: on, drm: on ? (output.drm ?? newDrm()) : undefined })}
        />
        <CheckField
          path={at('adMarkersEnabled')}
          label="Ad markers"
          onChange={(on) => form.set(`outputs.${index}`, { ...output, adMarkersEnabled: on, adMarkers: on ? withEventSource(output.adMarkers, output.adMarkers?.eventSource ?? 'SCHEDULER') : undefined })}
        />
      </FieldRow>
      {output.drmEnabled && (
        <FieldRow>
          <SelectField path={at('drm.drmProvider.providerType')} label="DRM provider" required options={DRM_PROVIDER_TYPES.map((value) => ({ value, label: PROVIDER_LABELS[value] }))} />
          <TextField path={at('drm.contentId')} label="Content id" required />
          <DrmSystems index={index} />
          <TextField path={at('drm.keyEncryptionKey')} label="Key encryption key" type="password" />
          {objectError('drm') && (
            <div className="field-error" role="alert">
              {objectError('drm')}
            </div>
          )}
        </FieldRow>
      )}
      {output.adMarkersEnabled && (
        <FieldRow>
          <SelectField
            path={at('adMarkers.eventSource')}
            label="Ad event source"
            required
            options={AD_EVENT_SOURCES.map((value) => ({ value, label: SOURCE_LABELS[value] }))}
            onChange={(value) => form.set(at('adMarkers'), withEventSource(output.adMarkers, value as EventSource))}
          />
          <TextField path={at('adMarkers.cueStyle')} label="Cue style" />
          {source === 'SCHEDULER' && (
            <>
              <NumberField path={at('adMarkers.schedule.frequencyInMinutes')} label="Frequency (min)" required min={1} max={1440} />
              <NumberField path={at('adMarkers.schedule.durationInSeconds')} label="Duration (s)" required min={1} max={86400} />
            </>
          )}
          {source === 'SMART_AD' && (
            <>
              <NumberField path={at('adMarkers.smartAdOption.minimumIntervalInMinutes')} label="Minimum interval (min)" required min={1} max={1440} />
              <NumberField path={at('adMarkers.smartAdOption.durationInSeconds')} label="Duration (s)" required min={1} max={86400} />
            </>
          )}
          {source === 'AD_DETECTION' && (
            <>
              <NumberField path={at('adMarkers.adDetectionOption.durationInSeconds')} label="Slot duration (s)" required min={1} max={86400} />
              <NumberField path={at('adMarkers.adClassifier')} label="Ad classifier (AI model ID)" min={1} />
              <NumberField path={at('adMarkers.featureExtractor')} label="Feature extractor (AI model ID)" min={1} />
            </>
          )}
          {source && objectError(`adMarkers.${SOURCE_OPTION[source]}`) && (
            <div className="field-error" role="alert">
              {objectError(`adMarkers.${SOURCE_OPTION[source]}`)}
            </div>
          )}
        </FieldRow>
      )}
    </>
  );
}
