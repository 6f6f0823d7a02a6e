import path from 'node:path';
import type { z } from 'zod';
import type { ApplicationSettings, FeatureSettings, FeatureSettingsUpdate, LogSettings, RedisSettings, RedisSettingsUpdate } from '../../openapi/schemas/settings.ts';
import type { DataPaths } from '../config.ts';
import type { Db } from '../db/database.ts';
import { ValidationError } from '../errors.ts';
import type { EventBus, LiveEvent } from '../events/event-bus.ts';
import { parseRedisHost, pingRedis, type RedisEndpoint } from '../events/redis-transport.ts';
import { DEFAULT_PROCESS_LOG_SETTINGS, PROCESS_LOG_EVENT, type LiveLogger, type ProcessLogSettings } from '../logging.ts';
import { SettingsRepository } from '../repositories/settings.repository.ts';
import { StreampoolServersRepository } from '../repositories/streampool-servers.repository.ts';
import { SecretsBox } from '../secrets-box.ts';
import { JOB_FEATURES, JOB_FEATURES_KEY } from './job-settings.service.ts';
import { StreampoolServersService } from './streampool-servers.service.ts';
import { FEATURES_KEY } from './system.service.ts';

type Application = z.output<typeof ApplicationSettings>;
type Redis = z.output<typeof RedisSettings>;
type Logs = z.output<typeof LogSettings>;
type Features = z.output<typeof FeatureSettings>;
export type LogTargetName = 'rixui' | 'rixjob';

/** Keys of system_settings this service owns (features and jobFeatures are shared with the shell and the job features catalogue). */
const APPLICATION_KEY = 'application';
const REDIS_KEY = 'redis';
const LOG_KEYS: Record<LogTargetName, string> = { rixui: 'rixuiLog', rixjob: 'rixjobLog' };
const LOG_DEFAULTS: Record<LogTargetName, Logs> = {
  rixui: DEFAULT_PROCESS_LOG_SETTINGS,
  rixjob: { logLevel: 'NOTICE', logTarget: 'FILE', logMaxSizeInMegaBytes: 10, loggers: [] },
};
/** A process's log settings as stored (RixUI: the API's; Rixjob: the node's), with the defaults of what is not. */
export async function storedLogSettings(settings: SettingsRepository, target: LogTargetName): Promise<Logs> {
  return { ...LOG_DEFAULTS[target], ...(await settings.get<Partial<Logs>>(LOG_KEYS[target])) };
}

/** The system features that gate areas of the console. */
const SYSTEM_FEATURES = [{ name: 'ads', description: 'Shows the Ads area (the Ad group of the sidebar).' }] as const;

interface StoredRedis {
  redisHost: string;
  redisPasswordSealed?: string;
}

/** System settings (spec 03): application, Redis, log and feature settings. Streampool servers: streampool-servers.service.ts. */
export class SettingsService {
  constructor(
    private readonly settings: SettingsRepository,
    private readonly bus: EventBus,
    private readonly box: SecretsBox,
  ) {}

  /**
   * Apply the stored Redis and RixUI log settings to this process and follow their changes,
   * whichever API process makes them. Returns the unsubscribe.
   */
  async start(logger?: LiveLogger): Promise<() => void> {
    const stops: Array<() => void> = [];
    if (logger) {
      logger.apply((await this.logs('rixui')) as ProcessLogSettings);
      stops.push(logger.follow(this.bus));
    }
    stops.push(
      this.bus.subscribe((event: LiveEvent) => {
        if (event.topic === 'settings' && event.type === 'updated' && event.id === REDIS_KEY) void this.applyRedis().catch(() => {});
      }),
    );
    await this.applyRedis().catch(() => {});
    return () => stops.forEach((stop) => stop());
  }

  private async applyRedis(): Promise<void> {
    await this.bus.useRedis(await this.storedEndpoint());
  }

  private async storedEndpoint(): Promise<RedisEndpoint | undefined> {
    const stored = await this.settings.get<StoredRedis>(REDIS_KEY);
    const parsed = stored?.redisHost ? parseRedisHost(stored.redisHost) : undefined;
    if (!parsed) return undefined;
    return { ...parsed, ...(stored?.redisPasswordSealed ? { password: this.box.open(stored.redisPasswordSealed) } : {}) };
  }

  private async changed(id: string, data?: unknown): Promise<void> {
    await this.bus.publish({ topic: 'settings', type: 'updated', id, ...(data === undefined ? {} : { data }) });
  }

  async application(): Promise<Application> {
    const stored = await this.settings.get<Partial<Application>>(APPLICATION_KEY);
    return { applicationIp: stored?.applicationIp ?? '', applicationUrl: stored?.applicationUrl ?? '' };
  }

  async updateApplication(input: Application): Promise<Application> {
    const value = { applicationIp: input.applicationIp, applicationUrl: input.applicationUrl };
    await this.settings.set(APPLICATION_KEY, value);
    await this.changed(APPLICATION_KEY);
    return value;
  }

  async redis(): Promise<Redis> {
    const stored = await this.settings.get<StoredRedis>(REDIS_KEY);
    return { redisHost: stored?.redisHost ?? '', redisPasswordSet: Boolean(stored?.redisPasswordSealed), connected: this.bus.redisReady };
  }

  /** Check the endpoint with a PING (2 s) before saving it; every API process then connects. */
  async updateRedis(input: z.output<typeof RedisSettingsUpdate>): Promise<Redis> {
    const parsed = parseRedisHost(input.redisHost);
    if (!parsed) throw ValidationError.field('redisHost', 'must be host:port, e.g. host:6379');
    const stored = await this.settings.get<StoredRedis>(REDIS_KEY);
    let password: string | undefined;
    if (input.redisPassword === undefined) password = stored?.redisPasswordSealed ? this.box.open(stored.redisPasswordSealed) : undefined;
    else password = input.redisPassword || undefined;
    try {
      await pingRedis({ ...parsed, ...(password ? { password } : {}) }, 2000);
    } catch (error) {
      throw ValidationError.field('redisHost', `Redis at ${input.redisHost} cannot be reached: ${(error as Error).message}`);
    }
    await this.settings.set(REDIS_KEY, { redisHost: input.redisHost, ...(password ? { redisPasswordSealed: this.box.seal(password) } : {}) });
    await this.applyRedis();
    await this.changed(REDIS_KEY);
    return this.redis();
  }

  async deleteRedis(): Promise<Redis> {
    await this.settings.set(REDIS_KEY, { redisHost: '' });
    await this.applyRedis();
    await this.changed(REDIS_KEY);
    return this.redis();
  }

  async logs(target: LogTargetName): Promise<Logs> {
    return storedLogSettings(this.settings, target);
  }

  /**
   * Loggers without an id get the next one. The settings reach the loggers through the bus: RixUI's
   * every API process's, Rixjob's every node's (api/logging.ts, `follow`).
   */
  async updateLogs(target: LogTargetName, input: Logs): Promise<Logs> {
    let next = Math.max(0, ...input.loggers.map((l) => l.id ?? 0)) + 1;
    const value: Logs = {
      logLevel: input.logLevel,
      logTarget: input.logTarget,
      logMaxSizeInMegaBytes: input.logMaxSizeInMegaBytes,
      loggers: input.loggers.map((l) => ({ id: l.id ?? next++, loggerName: l.loggerName, logLevel: l.logLevel })),
    };
    await this.settings.set(LOG_KEYS[target], value);
    if (target === 'rixui') await this.bus.publish({ ...PROCESS_LOG_EVENT, data: value });
    else await this.changed(LOG_KEYS[target], value);
    return value;
  }

  async features(): Promise<Features> {
    const system = (await this.settings.get<Record<string, boolean>>(FEATURES_KEY)) ?? {};
    const jobStored = (await this.settings.get<Array<{ name?: string; status?: boolean; value?: string | null }>>(JOB_FEATURES_KEY)) ?? [];
    const jobByName = new Map((Array.isArray(jobStored) ? jobStored : []).map((f) => [f.name, f]));
    return {
      features: [
        ...SYSTEM_FEATURES.map((f) => ({ ...f, scope: 'system' as const, valueType: 'none' as const, status: system[f.name] === true, value: null })),
        ...JOB_FEATURES.map((f) => {
          const set = jobByName.get(f.name);
          const on = set !== undefined && set.status !== false;
          return { name: f.name, description: f.description, scope: 'job' as const, valueType: f.valueType, status: on, value: set?.value ?? null };
        }),
      ],
    };
  }

  async updateFeatures(input: z.output<typeof FeatureSettingsUpdate>): Promise<Features> {
    const current = await this.features();
    const known = new Map(current.features.map((f) => [f.name, f]));
    input.features.forEach((f, index) => {
      const feature = known.get(f.name);
      if (!feature) throw ValidationError.field(`features.${index}.name`, `unknown feature ${f.name}`);
      const value = f.value ?? null;
      if (feature.valueType === 'number' && f.status && (value === null || value.trim() === '' || !Number.isFinite(Number(value)))) {
        throw ValidationError.field(`features.${index}.value`, `${f.name} needs a number`);
      }
      known.set(f.name, { ...feature, status: f.status, value: feature.valueType === 'none' ? null : value });
    });
    const all = [...known.values()];
    await this.settings.set(FEATURES_KEY, Object.fromEntries(all.filter((f) => f.scope === 'system').map((f) => [f.name, f.status])));
    await this.settings.set(
      JOB_FEATURES_KEY,
      all.filter((f) => f.scope === 'job' && (f.status || f.value !== null)).map((f) => ({ name: f.name, status: f.status, value: f.value })),
    );
    await this.changed('features');
    return this.features();
  }
}

/** Wire the settings area: one secrets box (key from MEDIAPLANE_SECRET_KEY or the data directory) for both services. */
export function createSettingsServices(db: Db, events: EventBus, paths: DataPaths) {
  // DataPaths are all directly under the data directory.
  const box = SecretsBox.fromDataDir(path.dirname(paths.logsDir));
  return {
    settings: new SettingsService(new SettingsRepository(db), events, box),
    streampoolServers: new StreampoolServersService(new StreampoolServersRepository(db), box, events),
  };
}
