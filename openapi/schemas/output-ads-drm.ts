import { z } from 'zod';

/**
 * The ad markers and the DRM of a job output (spec 01 §3 Output: "drmEnabled, drm (drmProvider with
 * providerType, contentId, drmSystems, keyEncryptionKey), adMarkersEnabled, adMarkers (eventSource,
 * cueStyle, schedule frequency and duration, smartAdOption minimumIntervalInMinutes and
 * durationInSeconds, adDetectionOption durationInSeconds, adClassifier, featureExtractor)"), with
 * the limits of §5 and §9. The provider's credentials live in a DRM extension and the classifier
 * and feature extractor are AI models: those areas (spec 02, spec 03 Extensions) own them.
 */

/** Spec 01 §3 "DRM provider type: IRDETO (others are in the extensions area)"; spec 03 names the DRM extensions Pallycon, Express Play, Ezdrm and Irdeto. */
export const DRM_PROVIDER_TYPES = ['PALLYCON', 'EXPRESS_PLAY', 'EZDRM', 'IRDETO'] as const;
/** The DRM systems a packaged stream can be protected for. */
export const DRM_SYSTEMS = ['WIDEVINE', 'PLAYREADY', 'FAIRPLAY'] as const;
/** Spec 01 §3 "Ad event sources: SCHEDULER, SMART_AD, AD_DETECTION". */
export const AD_EVENT_SOURCES = ['SCHEDULER', 'SMART_AD', 'AD_DETECTION'] as const;

export const Drm = z
  .object({
    drmProvider: z
      .object({ providerType: z.enum(DRM_PROVIDER_TYPES, { error: 'DRM provider type is required' }).describe('The DRM provider, set up in a DRM extension.') })
      .meta({ id: 'DrmProvider', description: 'The DRM provider of an output.' }),
    contentId: z
      .string({ error: 'Content id is required' })
      .trim()
      .min(1, 'Content id is required')
      .max(200, 'Content id must be at most 200 characters')
      .describe('The id under which the provider keeps the keys of this content.'),
    drmSystems: z
      .array(z.enum(DRM_SYSTEMS))
      .min(1, 'Choose at least one DRM system')
      .max(DRM_SYSTEMS.length)
      .refine((systems) => new Set(systems).size === systems.length, 'Each DRM system may be chosen once')
      .describe('The DRM systems the output is protected for.'),
    keyEncryptionKey: z.string().trim().max(256, 'Key encryption key must be at most 256 characters').optional().describe('The key that wraps the content keys exchanged with the provider.'),
  })
  .meta({ id: 'Drm', description: 'DRM of an output (spec 01 §3).' });

const minutes = (what: string) =>
  z
    .number({ error: `${what} is required` })
    .int(`${what} must be a whole number of minutes`)
    .min(1, `${what} must be 1 to 1440 minutes`)
    .max(1440, `${what} must be 1 to 1440 minutes`);

const seconds = (what: string) =>
  z
    .number({ error: `${what} is required` })
    .int(`${what} must be a whole number of seconds`)
    .min(1, `${what} must be 1 to 86400 seconds`)
    .max(86400, `${what} must be 1 to 86400 seconds`);

export const AdMarkers = z
  .object({
    eventSource: z.enum(AD_EVENT_SOURCES, { error: 'Ad event source is required' }).describe('What places the ad breaks: a fixed schedule, smart ads, or ad detection.'),
    cueStyle: z.string().trim().max(50, 'Cue style must be at most 50 characters').optional().describe('How the cues are written into the output.'),
    schedule: z
      .object({ frequencyInMinutes: minutes('Scheduler frequency'), durationInSeconds: seconds('Scheduler duration') })
      .optional()
      .describe('SCHEDULER: a break every frequencyInMinutes (1 to 1440), durationInSeconds long (1 to 86400).'),
    smartAdOption: z
      .object({ minimumIntervalInMinutes: minutes('Smart ad minimum interval'), durationInSeconds: seconds('Smart ad duration') })
      .optional()
      .describe('SMART_AD: breaks at least minimumIntervalInMinutes apart (1 to 1440), durationInSeconds long (1 to 86400).'),
    adDetectionOption: z
      .object({ durationInSeconds: seconds('Ad detection slot duration') })
      .optional()
      .describe('AD_DETECTION: the slot duration of a detected break (1 to 86400 seconds).'),
    adClassifier: z.number().int().positive().optional().describe('AD_DETECTION: the AI model that classifies ad breaks.'),
    featureExtractor: z.number().int().positive().optional().describe('AD_DETECTION: the AI model that extracts the features it classifies.'),
  })
  .meta({ id: 'AdMarkers', description: 'Ad markers of an output (spec 01 §3, limits of §5).' });

type Issue = (path: (string | number)[], message: string) => void;

/** What each event source needs (the option of its own). */
const SOURCE_OPTION = {
  SCHEDULER: { key: 'schedule', message: 'The scheduler needs a frequency and a duration' },
  SMART_AD: { key: 'smartAdOption', message: 'Smart ad needs a minimum interval and a duration' },
  AD_DETECTION: { key: 'adDetectionOption', message: 'Ad detection needs a slot duration' },
} as const;

/** The rules of an output's switches: DRM on needs its DRM; ad markers on need their source and the source's option. */
export function checkOutputAdsAndDrm(
  output: { drmEnabled: boolean; drm?: z.infer<typeof Drm>; adMarkersEnabled: boolean; adMarkers?: z.infer<typeof AdMarkers> },
  at: (string | number)[],
  issue: Issue,
): void {
  if (output.drmEnabled && !output.drm) issue([...at, 'drm'], 'DRM needs a provider, a content id and at least one DRM system');
  if (!output.adMarkersEnabled) return;
  if (!output.adMarkers) {
    issue([...at, 'adMarkers'], 'Ad markers need an event source');
    return;
  }
  const option = SOURCE_OPTION[output.adMarkers.eventSource];
  if (!output.adMarkers[option.key]) issue([...at, 'adMarkers', option.key], option.message);
}
