import path from 'node:path';
import type { z } from 'zod';
import type {
  AlarmSettings,
  AlarmSettingsUpdate,
  EmailServerSettings,
  JobAlarmDefaults,
  JobAlarmSettings,
  JobAlarmSettingsUpdate,
  SentAlarm,
  SmsProviderSettings,
  SystemAlarmList,
  SystemAlarmUpdate,
} from '../../openapi/schemas/alarms.ts';
import type { DataPaths } from '../config.ts';
import { SecretsBox } from '../secrets-box.ts';
import { AppError, NotFoundError, ValidationError } from '../errors.ts';
import type { Db } from '../db/database.ts';
import { AlarmsRepository, type NewDelivery } from '../repositories/alarms.repository.ts';
import { SettingsRepository } from '../repositories/settings.repository.ts';
import { sendMail, type SmsConfig, type SmtpConfig } from './alarm-delivery.ts';

type Defaults = z.infer<typeof JobAlarmDefaults>;
type JobSettings = z.infer<typeof JobAlarmSettings>;
type EmailStored = Omit<z.infer<typeof EmailServerSettings>, 'emailPasswordSet'> & { emailPasswordEncrypted?: string };
type SmsStored = Omit<z.infer<typeof SmsProviderSettings>, 'smsPasswordSet'> & { smsPasswordEncrypted?: string };
type SystemItem = z.infer<typeof SystemAlarmList>['items'][number];
type SystemStored = Pick<SystemItem, 'name' | 'value' | 'email' | 'sms'>;

export const DEFAULT_JOB_ALARMS: Defaults = {
  rixjobStop: true,
  rixjobStart: false,
  rixjobRestart: true,
  userStop: false,
  userStart: false,
  userRestart: false,
  email: true,
  smsEnabled: false,
  assignedRecipientUsers: [],
  recipientEmails: [],
};
const DEFAULT_EMAIL: EmailStored = { emailAddress: '', emailSmtpHost: '', emailSmtpPort: 587, emailSecure: false, emailLogin: '' };
const DEFAULT_SMS: SmsStored = { smsUrl: '', smsMethod: 'POST', smsBody: '{"to":"{to}","text":"{text}"}', smsLogin: '', amountOfSms: 10, numberOfTimeUnits: 1, timeUnit: 'HOURS' };

/** The system thresholds of spec 03, in their groups: percent up to 100, the others up to 1000000000. */
export const SYSTEM_ALARMS: ReadonlyArray<Omit<SystemItem, 'email' | 'sms' | 'raised' | 'current' | 'nodes'>> = [
  { name: 'cpu', label: 'CPU usage', group: 'Resources', type: 'NUMBER', value: 90, unit: '%', position: 1 },
  { name: 'memory', label: 'Memory usage', group: 'Resources', type: 'NUMBER', value: 90, unit: '%', position: 2 },
  { name: 'disk', label: 'Disk usage', group: 'Resources', type: 'NUMBER', value: 90, unit: '%', position: 3 },
  { name: 'failedJobs', label: 'Failed jobs', group: 'Services', type: 'NUMBER', value: 1, unit: 'jobs', position: 4 },
  { name: 'bandwidth', label: 'Bandwidth', group: 'Services', type: 'NUMBER', value: 1000, unit: 'Mbit/s', position: 5 },
];

const KEYS = { general: 'alarms.general', email: 'alarms.email', sms: 'alarms.sms', system: 'alarms.system' } as const;

export class AlarmsService {
  constructor(
    readonly repo: AlarmsRepository,
    readonly settings: SettingsRepository,
    private readonly secrets: SecretsBox,
  ) {}

  async defaults(): Promise<Defaults> {
    return { ...DEFAULT_JOB_ALARMS, ...(await this.settings.get<Defaults>(KEYS.general)) };
  }
  private async email(): Promise<EmailStored> {
    return { ...DEFAULT_EMAIL, ...(await this.settings.get<EmailStored>(KEYS.email)) };
  }
  private async sms(): Promise<SmsStored> {
    return { ...DEFAULT_SMS, ...(await this.settings.get<SmsStored>(KEYS.sms)) };
  }

  async getSettings(): Promise<z.infer<typeof AlarmSettings>> {
    const { emailPasswordEncrypted, ...email } = await this.email();
    const { smsPasswordEncrypted, ...sms } = await this.sms();
    return { general: await this.defaults(), emailServer: { ...email, emailPasswordSet: !!emailPasswordEncrypted }, smsProvider: { ...sms, smsPasswordSet: !!smsPasswordEncrypted } };
  }

  async updateSettings(update: z.infer<typeof AlarmSettingsUpdate>) {
    if (update.general) await this.settings.set(KEYS.general, update.general);
    if (update.emailServer) {
      const { emailPassword, ...rest } = update.emailServer;
      const current = await this.email();
      const emailPasswordEncrypted = emailPassword === undefined ? current.emailPasswordEncrypted : emailPassword ? this.secrets.seal(emailPassword) : undefined;
      await this.settings.set(KEYS.email, { ...rest, emailPasswordEncrypted });
    }
    if (update.smsProvider) {
      const { smsPassword, ...rest } = update.smsProvider;
      if (rest.smsUrl && !/^https?:\/\//i.test(rest.smsUrl)) throw ValidationError.field('body.smsProvider.smsUrl', 'URL must start with http:// or https://');
      const current = await this.sms();
      const smsPasswordEncrypted = smsPassword === undefined ? current.smsPasswordEncrypted : smsPassword ? this.secrets.seal(smsPassword) : undefined;
      await this.settings.set(KEYS.sms, { ...rest, smsPasswordEncrypted });
    }
    return this.getSettings();
  }

  async smtpConfig(): Promise<SmtpConfig> {
    const e = await this.email();
    return { host: e.emailSmtpHost, port: e.emailSmtpPort, secure: e.emailSecure, user: e.emailLogin, password: e.emailPasswordEncrypted ? this.secrets.open(e.emailPasswordEncrypted) : '', from: e.emailAddress };
  }

  async smsConfig(): Promise<SmsConfig & { rateLimit?: { amount: number; windowMs: number } }> {
    const s = await this.sms();
    const windowMs = s.numberOfTimeUnits * (s.timeUnit === 'HOURS' ? 3_600_000 : 60_000);
    return { url: s.smsUrl, method: s.smsMethod, body: s.smsBody, login: s.smsLogin, password: s.smsPasswordEncrypted ? this.secrets.open(s.smsPasswordEncrypted) : '', rateLimit: windowMs > 0 ? { amount: s.amountOfSms, windowMs } : undefined };
  }

  async sendTestEmail(address: string) {
    try {
      const messageId = await sendMail(await this.smtpConfig(), { to: address, subject: 'Mediaplane test alarm', text: 'This is a test of the alarm e-mail settings of Mediaplane.' });
      return { ok: true as const, messageId };
    } catch (error) {
      throw new AppError(502, 'SMTP_FAILED', `The e-mail could not be sent: ${(error as Error).message}`);
    }
  }

  async jobSettings(jobId: number): Promise<JobSettings> {
    if (!(await this.repo.jobExists(jobId))) throw new NotFoundError(`No job with id ${jobId}`);
    const own = (await this.repo.jobSettings(jobId)) as Omit<JobSettings, 'jobId'> | undefined;
    return { ...(await this.defaults()), useNotDefaultAlarmSettingOptions: false, useNotDefaultRecipients: false, ...own, jobId };
  }

  async updateJobSettings(jobId: number, body: z.infer<typeof JobAlarmSettingsUpdate>): Promise<JobSettings> {
    if (!(await this.repo.jobExists(jobId))) throw new NotFoundError(`No job with id ${jobId}`);
    await this.repo.saveJobSettings(jobId, body);
    return this.jobSettings(jobId);
  }

  /** What applies to a job: its own switches and recipients where it overrides them, else the defaults. */
  async effectiveJobSettings(jobId: number): Promise<Defaults> {
    const defaults = await this.defaults();
    const own = (await this.repo.jobSettings(jobId)) as Omit<JobSettings, 'jobId'> | undefined;
    if (!own) return defaults;
    const options = own.useNotDefaultAlarmSettingOptions ? own : defaults;
    const recipients = own.useNotDefaultRecipients ? own : defaults;
    return { ...options, assignedRecipientUsers: recipients.assignedRecipientUsers, recipientEmails: recipients.recipientEmails };
  }

  /** The deliveries of one alarm: e-mail to the users' and extra addresses, SMS to the users' phones. */
  async deliveriesFor(target: Pick<Defaults, 'assignedRecipientUsers' | 'recipientEmails'>, channels: { email: boolean; sms: boolean }, subject: string, body: string): Promise<NewDelivery[]> {
    const users = await this.repo.usersByIds(target.assignedRecipientUsers.map((u) => u.id));
    const out: NewDelivery[] = [];
    if (channels.email) {
      const addresses = new Set([...users.map((u) => u.email).filter((e): e is string => !!e), ...target.recipientEmails.map((r) => r.email)]);
      for (const recipient of addresses) out.push({ channel: 'EMAIL', recipient, subject, body });
    }
    if (channels.sms) {
      for (const phone of new Set(users.map((u) => u.phone_number).filter((p): p is string => !!p))) out.push({ channel: 'SMS', recipient: phone, subject, body });
    }
    return out;
  }

  async systemAlarms(): Promise<z.infer<typeof SystemAlarmList>> {
    const stored = (await this.settings.get<SystemStored[]>(KEYS.system)) ?? [];
    const states = await this.repo.systemStates();
    return {
      items: SYSTEM_ALARMS.map((def) => {
        const own = stored.find((s) => s.name === def.name);
        const nodes = states
          .filter((state) => state.name === def.name)
          .map((state) => ({ nodeId: state.node_id, nodeName: state.node_name, raised: state.raised, current: state.current, changedAt: state.changed_at.toISOString() }));
        const readings = nodes.flatMap((node) => (node.current === null ? [] : [node.current]));
        return {
          ...def,
          value: own?.value ?? def.value,
          email: own?.email ?? false,
          sms: own?.sms ?? false,
          raised: nodes.some((node) => node.raised),
          current: readings.length ? Math.max(...readings) : null,
          nodes,
        };
      }),
    };
  }

  async updateSystemAlarms(body: z.infer<typeof SystemAlarmUpdate>) {
    const details = body.items.flatMap((item, i) => {
      const def = SYSTEM_ALARMS.find((d) => d.name === item.name);
      const max = def?.unit === '%' ? 100 : 1_000_000_000;
      return item.value > max ? [{ path: `body.items.${i}.value`, message: `${def?.label ?? item.name} must be at most ${max}` }] : [];
    });
    if (details.length) throw new ValidationError(`${details[0].path}: ${details[0].message}`, details);
    const stored = (await this.settings.get<SystemStored[]>(KEYS.system)) ?? [];
    const merged = new Map(stored.map((s) => [s.name, s]));
    for (const item of body.items) merged.set(item.name, item);
    await this.settings.set(KEYS.system, [...merged.values()]);
    return this.systemAlarms();
  }

  async history(query: { page: number; size: number; order: 'asc' | 'desc'; jobId?: number }) {
    const { total, alarms, deliveries } = await this.repo.history(query);
    const items: Array<z.infer<typeof SentAlarm>> = alarms.map((a) => {
      const own = deliveries.filter((d) => d.alarm_id === a.id);
      return {
        id: a.id,
        time: a.at.toISOString(),
        type: a.type,
        jobName: a.job_name,
        jobId: a.job_id,
        jobType: a.job_type,
        resource: a.resource,
        alarm: a.alarm,
        cause: a.cause,
        deliveries: own.map((d) => ({ id: d.id, channel: d.channel, recipient: d.recipient, status: d.status, attempts: d.attempts, lastError: d.last_error, sentAt: d.sent_at?.toISOString() ?? null })),
        count: own.filter((d) => d.status === 'SENT').length,
      };
    });
    return { items, total, page: query.page, size: query.size };
  }

  async deleteHistory() {
    await this.repo.deleteHistory();
    return { ok: true as const };
  }

  async cards(query: { page: number; size: number }) {
    const { total, rows } = await this.repo.cards(query.page, query.size);
    const items = rows.map((r) => ({ jobId: r.id, jobName: r.name, jobType: r.kind, alarmed: r.alarmed, sentEmailAlarmCount: r.emails, sentSmsAlarmCount: r.sms }));
    return { items, total, page: query.page, size: query.size };
  }
}

export function createAlarmsService(db: Db, paths: DataPaths): AlarmsService {
  return new AlarmsService(new AlarmsRepository(db), new SettingsRepository(db), SecretsBox.fromDataDir(path.dirname(paths.logsDir)));
}
