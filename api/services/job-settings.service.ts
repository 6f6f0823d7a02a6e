import type { z } from 'zod';
import type { Endpoints, FeatureCatalogue } from '../../openapi/schemas/job-api.ts';
import type { SettingsRepository } from '../repositories/settings.repository.ts';

/**
 * The job features an admin can set (spec 01 §2.4 features table), each one a setting of the
 * engine's job spec that has no field in the form: the node resolves a job's features into its spec.
 */
export const JOB_FEATURES = [
  {
    name: 'staleTimeoutSeconds',
    description: 'Seconds without progress from ffmpeg before the process counts as hung and is restarted (default 15).',
    valueType: 'number',
  },
  {
    name: 'failoverReturnAfterHealthySeconds',
    description: 'Seconds the primary input must answer before a job running on its failover input returns to it (default 10).',
    valueType: 'number',
  },
  {
    name: 'udpTtl',
    description: 'Time to live (1 to 255) of the packets of the job\'s UDP outputs (default: the system\'s).',
    valueType: 'number',
  },
] as const satisfies ReadonlyArray<{ name: string; description: string; valueType: 'none' | 'string' | 'number' }>;

/** System settings key of the features set globally ("Rixjob Features" tab): `[{ name, status, value }]`. */
export const JOB_FEATURES_KEY = 'jobFeatures';
/** System settings key of the integration endpoints (spec 01 §2.10). */
export const ENDPOINTS_KEY = 'endpoints';

type EndpointsValue = z.output<typeof Endpoints>;

export class JobSettingsService {
  constructor(private readonly settings: SettingsRepository) {}

  async features(): Promise<z.output<typeof FeatureCatalogue>> {
    const global = (await this.settings.get<Array<{ name?: string; status?: boolean; value?: string | null }>>(JOB_FEATURES_KEY)) ?? [];
    const byName = new Map((Array.isArray(global) ? global : []).map((f) => [f.name, f]));
    return {
      items: JOB_FEATURES.map((feature) => {
        const set = byName.get(feature.name);
        const on = set !== undefined && set.status !== false;
        return { ...feature, global: on, globalValue: on ? (set?.value ?? null) : null };
      }),
    };
  }

  async endpoints(): Promise<EndpointsValue> {
    const stored = await this.settings.get<Partial<EndpointsValue>>(ENDPOINTS_KEY);
    return { runproxUrl: stored?.runproxUrl ?? '', astraUrl: stored?.astraUrl ?? '' };
  }

  async updateEndpoints(value: EndpointsValue): Promise<EndpointsValue> {
    const endpoints = { runproxUrl: value.runproxUrl, astraUrl: value.astraUrl };
    await this.settings.set(ENDPOINTS_KEY, endpoints);
    return endpoints;
  }
}
