import { z } from 'zod';
import { LOG_LEVEL_NAMES } from './jobs.ts';

/** System settings (spec 03 §2 System settings, §3 System settings entity). */

const ipv4 = z.ipv4();
const ipv6 = z.ipv6();
const isIpLiteral = (value: string) => ipv4.safeParse(value).success || ipv6.safeParse(value).success;

export const ApplicationSettings = z
  .object({
    applicationIp: z
      .string()
      .trim()
      .max(100)
      .refine((value) => value === '' || isIpLiteral(value), 'must be an IP address, e.g. 192.0.2.10')
      .describe('The IP address the application is reached at (an IPv4 or IPv6 literal; empty: not set).'),
    applicationUrl: z
      .string()
      .trim()
      .max(2000)
      .refine((value) => value === '' || (/^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value)), 'must be a URL, e.g. https://media.example.com')
      .describe('The public URL of the application (http or https; empty: not set).'),
  })
  .meta({ id: 'ApplicationSettings', description: 'The Application Settings tab.' });

export const RedisSettings = z
  .object({
    redisHost: z.string().describe('Redis endpoint as host:port; empty when no Redis is configured.'),
    redisPasswordSet: z.boolean().describe('A password is stored (it is never returned).'),
    connected: z.boolean().describe('This API process fans live events out through this Redis right now.'),
  })
  .meta({ id: 'RedisSettings', description: 'The Redis Settings tab: with a Redis set, live events fan out across API processes through Redis pub/sub too.' });

export const RedisSettingsUpdate = z
  .object({
    redisHost: z
      .string()
      .trim()
      .min(1, 'Redis endpoint is required')
      .max(300)
      .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'must be host:port, e.g. host:6379')
      .describe('Redis endpoint, host:port (placeholder host:6379). It is checked with a PING (2 s) before it is saved.'),
    redisPassword: z.string().max(500).nullable().optional().describe('Password (AUTH). Absent: keep the stored one; null or empty: none.'),
  })
  .meta({ id: 'RedisSettingsUpdate', description: 'A new Redis endpoint.' });

export const SettingsLogLevel = z.enum(LOG_LEVEL_NAMES).meta({ id: 'SettingsLogLevel', description: 'A log level, least severe first.' });

export const Logger = z
  .object({
    id: z.number().int().positive().optional().describe('Assigned on save when absent.'),
    loggerName: z.string().trim().min(1, 'Logger name is required').max(200, 'Logger name must be at most 200 characters').describe('Name of the logger (a prefix: `api` covers `api.http`).'),
    logLevel: SettingsLogLevel,
  })
  .meta({ id: 'Logger', description: 'A logger whose level differs from the global one.' });

export const LogTarget = z.enum(['CONSOLE', 'FILE']).meta({ id: 'LogTarget', description: 'CONSOLE: standard error; FILE: a file in the logs directory, rotated at the max size.' });

export const LogSettings = z
  .object({
    logLevel: SettingsLogLevel,
    logTarget: LogTarget,
    logMaxSizeInMegaBytes: z
      .number({ error: 'Log max size must be a whole number' })
      .int('Log max size must be a whole number')
      .min(1, 'Log max size must be at least 1 MB')
      .max(10240, 'Log max size must be at most 10240 MB'),
    loggers: z
      .array(Logger)
      .max(100)
      .refine((list) => new Set(list.map((l) => l.loggerName)).size === list.length, 'Each logger name may appear once')
      .describe('Loggers with their own level.'),
  })
  .meta({ id: 'LogSettings', description: 'RixUI Log Settings (the API processes) or Rixjob Log Settings (the defaults of job logs).' });

export const LogSettingsTarget = z.enum(['rixui', 'rixjob']).describe('rixui: the API processes; rixjob: the jobs (engine) logs.');
export const LogSettingsParams = z.object({ target: LogSettingsTarget });

export const FeatureSetting = z
  .object({
    name: z.string().describe('Feature name.'),
    scope: z.enum(['system', 'job']).describe('system: gates an area of the console (e.g. ads); job: a global value of the job features catalogue.'),
    description: z.string(),
    valueType: z.enum(['none', 'string', 'number']).describe('Kind of value the feature takes.'),
    status: z.boolean().describe('On or off.'),
    value: z.string().nullable().describe('The value, when the feature takes one.'),
  })
  .meta({ id: 'FeatureSetting', description: 'One row of the Rixjob Features table.' });

export const FeatureSettings = z.object({ features: z.array(FeatureSetting) }).meta({ id: 'FeatureSettings', description: 'The Rixjob Features tab (ADMIN only).' });

export const FeatureSettingsUpdate = z
  .object({
    features: z
      .array(
        z.object({
          name: z.string().max(100),
          status: z.boolean(),
          value: z.string().max(500).nullable().optional(),
        }),
      )
      .max(100),
  })
  .meta({ id: 'FeatureSettingsUpdate', description: 'New values; features not listed keep theirs.' });

export const StreampoolServer = z
  .object({
    id: z.number().int(),
    alias: z.string(),
    publishAddress: z.string(),
    playbackAddress: z.string(),
    apiKey: z.string().describe('Masked: only the last 9 characters are visible.'),
    usageCount: z.number().int().describe('Jobs whose deliveries use this server.'),
  })
  .meta({ id: 'StreampoolServer', description: 'A streampool server.' });

const address = (label: string) =>
  z
    .string()
    .trim()
    .max(500, `${label} must be at most 500 characters`)
    .refine((value) => value === '' || URL.canParse(value) || /^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(value), `${label} must be a URL or host[:port]`);

export const StreampoolServerInput = z
  .object({
    alias: z.string().trim().max(100, 'Alias must be at most 100 characters').default(''),
    publishAddress: address('Publish address').default(''),
    playbackAddress: address('Playback address').default(''),
    apiKey: z
      .string()
      .max(500, 'API key must be at most 500 characters')
      .optional()
      .describe('Required on create. On update: absent, empty, or the masked value keeps the stored key.'),
  })
  .meta({ id: 'StreampoolServerInput', description: 'A streampool server to create or update.' });

export const StreampoolServerList = z.object({ items: z.array(StreampoolServer) }).meta({ id: 'StreampoolServerList', description: 'Every streampool server.' });
