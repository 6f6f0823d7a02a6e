import { ApplicationSettings, RedisSettingsUpdate } from '../../../../openapi/schemas/settings.ts';
import { useErrorAlert } from '../../components/dialogs.tsx';
import { Field } from '../../components/form/Field.tsx';
import { SubmitButton } from '../../components/form/FormFooter.tsx';
import { useZodForm } from '../../components/form/useZodForm.ts';
import { Card } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useUpdateApplicationSettings, useUpdateRedisSettings } from '../../data/settings/mutations.ts';
import type { RedisSettings } from '../../data/settings/queries.ts';
import { saveWith } from './save.ts';

type AppValues = { applicationIp: string; applicationUrl: string };
const appPayload = (v: AppValues) => ({ applicationIp: v.applicationIp.trim(), applicationUrl: v.applicationUrl.trim() });

/** Application Settings: the IP and URL the application is reached at. */
export function ApplicationTab({ initial, readOnly }: { initial: AppValues; readOnly: boolean }) {
  const update = useUpdateApplicationSettings();
  const toast = useToast();
  const showError = useErrorAlert();
  const form = useZodForm<AppValues>({ initial, schema: ApplicationSettings, toPayload: appPayload, saved: true });
  const submit = form.formProps((payload) =>
    saveWith(async () => {
      const saved = await update.mutateAsync(payload as AppValues);
      toast.success('Application settings updated.');
      return saved;
    }, showError),
  );
  return (
    <form className="form settings-form" {...submit} aria-label="Application Settings">
      <fieldset className="form-fieldset" disabled={readOnly}>
        <Card title="Application Settings">
          <div className="form-grid">
            <Field label="Application IP" error={form.errorOf('applicationIp')}>
              <input name="applicationIp" placeholder="192.0.2.10" autoComplete="off" spellCheck={false} value={form.values.applicationIp} onChange={(e) => form.set('applicationIp', e.target.value)} onBlur={() => form.touch('applicationIp')} />
            </Field>
            <Field label="Application URL" error={form.errorOf('applicationUrl')}>
              <input name="applicationUrl" type="url" placeholder="https://media.example.com" autoComplete="off" spellCheck={false} value={form.values.applicationUrl} onChange={(e) => form.set('applicationUrl', e.target.value)} onBlur={() => form.touch('applicationUrl')} />
            </Field>
          </div>
        </Card>
      </fieldset>
      {!readOnly && (
        <div className="settings-actions">
          <SubmitButton isNew={false} saving={form.saving} disabled={!form.canSubmit} />
        </div>
      )}
    </form>
  );
}

type RedisValues = { redisHost: string; redisPassword: string };
const redisPayload = (v: RedisValues) => ({ redisHost: v.redisHost.trim(), ...(v.redisPassword ? { redisPassword: v.redisPassword } : {}) });

/** Redis Settings: the endpoint is checked by the server (PING within 2 s) before it is saved. */
export function RedisTab({ initial, readOnly }: { initial: RedisSettings; readOnly: boolean }) {
  const update = useUpdateRedisSettings();
  const toast = useToast();
  const showError = useErrorAlert();
  const form = useZodForm<RedisValues>({ initial: { redisHost: initial.redisHost, redisPassword: '' }, schema: RedisSettingsUpdate, toPayload: redisPayload, saved: true });
  const submit = form.formProps((payload) =>
    saveWith(async () => {
      const saved = await update.mutateAsync(payload as RedisValues);
      toast.success(`Redis ${saved.redisHost} connected.`);
      return { redisHost: saved.redisHost, redisPassword: '' };
    }, showError),
  );
  return (
    <form className="form settings-form" {...submit} aria-label="Redis Settings">
      <fieldset className="form-fieldset" disabled={readOnly}>
        <Card title="Redis Settings">
          <div className="form-grid">
            <Field label="Redis endpoint" required error={form.errorOf('redisHost')} hint="Live events fan out across API instances through this Redis.">
              <input name="redisHost" placeholder="host:6379" autoComplete="off" spellCheck={false} value={form.values.redisHost} onChange={(e) => form.set('redisHost', e.target.value)} onBlur={() => form.touch('redisHost')} />
            </Field>
            <Field label="Redis password" error={form.errorOf('redisPassword')} hint={initial.redisPasswordSet ? 'A password is stored; leave empty to keep it.' : undefined}>
              <input name="redisPassword" type="password" autoComplete="new-password" value={form.values.redisPassword} onChange={(e) => form.set('redisPassword', e.target.value)} />
            </Field>
          </div>
          <p className="settings-status">
            <span className={initial.connected ? 'status-dot status-dot-on' : 'status-dot'} aria-hidden="true" />
            {initial.redisHost ? (initial.connected ? `Connected to ${initial.redisHost}` : `Not connected to ${initial.redisHost}`) : 'No Redis: live events go through Postgres.'}
          </p>
        </Card>
      </fieldset>
      {!readOnly && (
        <div className="settings-actions">
          <SubmitButton isNew={false} saving={form.saving} disabled={!form.canSubmit} />
        </div>
      )}
    </form>
  );
}
