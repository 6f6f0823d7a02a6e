import { z } from 'zod';
import { SortOrder, Timestamp, pageOf } from './common.ts';

/** Spec 03 Alarms: job alarm defaults, e-mail server and SMS provider settings, system thresholds, sent alarms. */

const flag = (what: string) => z.boolean().describe(what);

const RecipientUser = z.object({ id: z.number().int(), username: z.string() }).meta({ id: 'AlarmRecipientUser', description: 'A user who receives the alarms: by e-mail at their address, by SMS at their phone number.' });
const RecipientEmail = z
  .object({ id: z.number().int().describe('Position in the list.'), email: z.email("This doesn't look like valid e-mail").max(100, 'E-mail is too long') })
  .meta({ id: 'AlarmRecipientEmail', description: 'An extra e-mail address that receives the alarms.' });

export const JOB_ALARM_KINDS = ['rixjobStop', 'rixjobStart', 'rixjobRestart', 'userStop', 'userStart', 'userRestart'] as const;
export type JobAlarmKind = (typeof JOB_ALARM_KINDS)[number];

const jobAlarmFields = {
  rixjobStop: flag('Alarm when the job stops by itself (the engine).'),
  rixjobStart: flag('Alarm when the engine starts the job (recovery).'),
  rixjobRestart: flag('Alarm when the engine restarts the job.'),
  userStop: flag('Alarm when a user (or timer) stops the job.'),
  userStart: flag('Alarm when a user (or timer) starts the job.'),
  userRestart: flag('Alarm when a user (or timer) restarts the job.'),
  email: flag('Send the alarms by e-mail.'),
  smsEnabled: flag('Send the alarms by SMS.'),
  assignedRecipientUsers: z.array(RecipientUser).max(100).describe('Users who receive the alarms.'),
  recipientEmails: z.array(RecipientEmail).max(100).describe('Extra e-mail addresses.'),
};

export const JobAlarmDefaults = z.object(jobAlarmFields).meta({ id: 'JobAlarmDefaults', description: 'Job alarm default settings. A FAILURE (restart attempts ran out) always alarms for an alarmed job.' });

export const JobAlarmSettings = z
  .object({
    ...jobAlarmFields,
    jobId: z.number().int(),
    useNotDefaultAlarmSettingOptions: flag('Use the event switches and channels of this job instead of the defaults.'),
    useNotDefaultRecipients: flag('Use the recipients of this job instead of the defaults.'),
  })
  .meta({ id: 'JobAlarmSettings', description: 'The alarm settings of one job.' });
export const JobAlarmSettingsUpdate = JobAlarmSettings.omit({ jobId: true }).meta({ id: 'JobAlarmSettingsUpdate' });

const port = z.number({ error: 'SMTP port must be a number' }).int('SMTP port must be a whole number').min(0, 'SMTP port must be at least 0').max(65535, 'SMTP port must be at most 65535');

export const EmailServerSettings = z
  .object({
    emailAddress: z.union([z.literal(''), z.email("This doesn't look like valid e-mail").max(100, 'E-mail is too long')]).describe('The From address of the alarm mails.'),
    emailSmtpHost: z.string().max(255).describe('SMTP server host.'),
    emailSmtpPort: port.describe('SMTP port, 0 to 65535.'),
    emailSecure: flag('TLS from the start (port 465); otherwise STARTTLS when offered.'),
    emailLogin: z.string().max(255).describe('SMTP user; empty for none.'),
    emailPasswordSet: z.boolean().describe('A password is stored; it is never returned.'),
  })
  .meta({ id: 'EmailServerSettings', description: 'E-mail server settings. The password is stored encrypted and never returned.' });
export const EmailServerSettingsUpdate = EmailServerSettings.omit({ emailPasswordSet: true })
  .extend({ emailPassword: z.string().max(255).optional().describe('New password; left out keeps the stored one, empty clears it.') })
  .meta({ id: 'EmailServerSettingsUpdate' });

export const SmsTimeUnit = z.enum(['MINS', 'HOURS']).meta({ id: 'SmsTimeUnit' });
const count = (label: string) => z.number({ error: `${label} must be a number` }).int(`${label} must be a whole number`).min(0, `${label} must be at least 0`);

export const SmsProviderSettings = z
  .object({
    smsUrl: z.string().max(2000).describe('URL template of the provider; {to}, {text}, {login}, {password} are replaced (URL-encoded).'),
    smsMethod: z.enum(['GET', 'POST']).describe('HTTP method.'),
    smsBody: z.string().max(4000).describe('Body template for POST (same placeholders, JSON-escaped when the body is JSON).'),
    smsLogin: z.string().max(255),
    smsPasswordSet: z.boolean().describe('A password is stored; it is never returned.'),
    amountOfSms: count('Amount of SMS').describe('At most this many SMS ...'),
    numberOfTimeUnits: count('Number of time units').describe('... per this many time units (0: no limit).'),
    timeUnit: SmsTimeUnit,
  })
  .meta({ id: 'SmsProviderSettings', description: 'SMS provider settings with the rate limit amountOfSms per numberOfTimeUnits timeUnit.' });
export const SmsProviderSettingsUpdate = SmsProviderSettings.omit({ smsPasswordSet: true })
  .extend({ smsPassword: z.string().max(255).optional().describe('New password; left out keeps the stored one.') })
  .meta({ id: 'SmsProviderSettingsUpdate' });

export const AlarmSettings = z
  .object({ general: JobAlarmDefaults, emailServer: EmailServerSettings, smsProvider: SmsProviderSettings })
  .meta({ id: 'AlarmSettings', description: 'General settings of the alarms.' });
export const AlarmSettingsUpdate = z
  .object({ general: JobAlarmDefaults.optional(), emailServer: EmailServerSettingsUpdate.optional(), smsProvider: SmsProviderSettingsUpdate.optional() })
  .meta({ id: 'AlarmSettingsUpdate', description: 'The parts given are replaced.' });

export const SYSTEM_ALARM_NAMES = ['cpu', 'memory', 'disk', 'failedJobs', 'bandwidth'] as const;
export const SystemAlarmName = z.enum(SYSTEM_ALARM_NAMES).meta({ id: 'SystemAlarmName' });

export const SystemAlarmNodeState = z
  .object({
    nodeId: z.number().int(),
    nodeName: z.string(),
    raised: z.boolean().describe('The threshold is crossed now on this node.'),
    current: z.number().nullable().describe('The value last read on this node.'),
    changedAt: z.string().describe('When it was last raised or cleared (ISO 8601).'),
  })
  .meta({ id: 'SystemAlarmNodeState', description: 'A system alarm threshold on one node.' });

export const SystemAlarmSetting = z
  .object({
    name: SystemAlarmName,
    label: z.string(),
    group: z.enum(['Resources', 'Services']),
    type: z.literal('NUMBER'),
    value: z.number(),
    unit: z.string().describe('"%" (max 100) or another unit (max 1000000000).'),
    position: z.number().int(),
    email: flag('Send by e-mail when raised or cleared.'),
    sms: flag('Send by SMS when raised or cleared.'),
    raised: z.boolean().describe('The threshold is crossed now on at least one node.'),
    current: z.number().nullable().describe('The highest value last read on any node.'),
    nodes: z.array(SystemAlarmNodeState).describe('The state on each node read so far, by node name: each node is raised and cleared on its own.'),
  })
  .meta({ id: 'SystemAlarmSetting', description: 'A system alarm threshold; off when neither e-mail nor SMS is on.' });
export const SystemAlarmList = z.object({ items: z.array(SystemAlarmSetting) }).meta({ id: 'SystemAlarmList' });
export const SystemAlarmUpdate = z
  .object({
    items: z.array(
      z.object({
        name: SystemAlarmName,
        value: z.number({ error: 'Value is required' }).min(0, 'Value must be at least 0'),
        email: z.boolean(),
        sms: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'SystemAlarmUpdate', description: 'Thresholds: numeric, required, minimum 0, maximum 100 when the unit is percent, otherwise 1000000000.' });

export const AlarmDelivery = z
  .object({
    id: z.number().int(),
    channel: z.enum(['EMAIL', 'SMS']),
    recipient: z.string(),
    status: z.enum(['QUEUED', 'SENT', 'FAILED']),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    sentAt: Timestamp.nullable(),
  })
  .meta({ id: 'AlarmDelivery', description: 'One e-mail or SMS of an alarm; queued ones are retried with backoff.' });

export const SentAlarm = z
  .object({
    id: z.number().int(),
    time: Timestamp,
    type: z.string().describe('JOB, or the system resource group (SYSTEM).'),
    jobName: z.string().nullable(),
    jobId: z.number().int().nullable(),
    jobType: z.string().nullable().describe('relay or encoding.'),
    resource: z.string().nullable(),
    alarm: z.string().describe('rixjobStop, userStart, FAILURE, cpu raised ...'),
    cause: z.string().nullable(),
    deliveries: z.array(AlarmDelivery),
    count: z.number().int().describe('Deliveries sent.'),
  })
  .meta({ id: 'SentAlarm', description: 'An alarm and its deliveries.' });
export const SentAlarmPage = pageOf(SentAlarm, 'SentAlarmPage');
export const SentAlarmQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(500).default(25),
  order: SortOrder.default('desc').describe('By date.'),
  jobId: z.coerce.number().int().positive().optional(),
});

export const AlarmCard = z
  .object({ jobId: z.number().int(), jobName: z.string(), jobType: z.string(), alarmed: z.boolean(), sentEmailAlarmCount: z.number().int(), sentSmsAlarmCount: z.number().int() })
  .meta({ id: 'AlarmCard', description: 'Alarm list card: the job and the counts of its sent e-mail and SMS alarms.' });
export const AlarmCardPage = pageOf(AlarmCard, 'AlarmCardPage');
export const AlarmCardQuery = z.object({ page: z.coerce.number().int().min(1).default(1), size: z.coerce.number().int().min(1).max(500).default(8) });

export const TestEmail = z.object({ address: z.email("This doesn't look like valid e-mail").max(100, 'E-mail is too long') }).meta({ id: 'TestEmail' });
export const TestEmailResult = z.object({ ok: z.literal(true), messageId: z.string() }).meta({ id: 'TestEmailResult' });
