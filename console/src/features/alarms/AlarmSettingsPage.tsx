import { useEffect, useState } from 'react';
import { Field } from '../../components/form/Field.tsx';
import { Card, PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan } from '../../data/auth/queries.ts';
import { useSendTestEmail, useUpdateAlarmSettings } from '../../data/alarms/mutations.ts';
import { useAlarmSettings, type AlarmSettings } from '../../data/alarms/queries.ts';
import { fieldErrorsOf, messageOf, type Schemas } from '../../data/client.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { AlarmsNav } from './AlarmsNav.tsx';
import { LabeledSwitch, SWITCHES } from './AlarmSwitches.tsx';
import { RecipientsEditor } from './RecipientsEditor.tsx';
import '../../styles/alarms.css';

type General = AlarmSettings['general'];
type Email = Schemas['EmailServerSettingsUpdate'];
type Sms = Schemas['SmsProviderSettingsUpdate'];

/** /my/alarms/settings (General settings): job alarm defaults, e-mail server settings, SMS provider settings. */
export default function AlarmSettingsPage() {
  usePageTitle('General settings');
  const settings = useAlarmSettings();
  const update = useUpdateAlarmSettings();
  const testEmail = useSendTestEmail();
  const canEdit = useCan('ALARMS_EDIT');
  const toast = useToast();
  const [general, setGeneral] = useState<General>();
  const [email, setEmail] = useState<Email>();
  const [sms, setSms] = useState<Sms>();
  const [testAddress, setTestAddress] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (!settings.data) return;
    const { emailPasswordSet: _e, ...emailServer } = settings.data.emailServer;
    const { smsPasswordSet: _s, ...smsProvider } = settings.data.smsProvider;
    setGeneral(settings.data.general);
    setEmail(emailServer);
    setSms(smsProvider);
  }, [settings.data]);

  if (settings.error) return <p className="alert alert-danger">{messageOf(settings.error)}</p>;
  if (!general || !email || !sms || !settings.data) return <p className="muted">Loading ...</p>;

  const portError = email.emailSmtpPort < 0 || email.emailSmtpPort > 65535 || !Number.isInteger(email.emailSmtpPort) ? 'SMTP port must be between 0 and 65535' : undefined;
  const countError = (n: number, label: string) => (n < 0 || !Number.isInteger(n) ? `${label} must be at least 0` : undefined);
  const clientErrors: Record<string, string | undefined> = {
    'emailServer.emailSmtpPort': portError,
    'smsProvider.amountOfSms': countError(sms.amountOfSms, 'Amount of SMS'),
    'smsProvider.numberOfTimeUnits': countError(sms.numberOfTimeUnits, 'Number of time units'),
  };
  const errorOf = (path: string) => clientErrors[path] ?? errors[path];
  const invalid = Object.values(clientErrors).some(Boolean);

  const save = () => {
    setErrors({});
    update.mutate(
      { general, emailServer: { ...email, emailPassword: email.emailPassword || undefined }, smsProvider: { ...sms, smsPassword: sms.smsPassword || undefined } },
      {
        onSuccess: () => toast.success('Alarm settings updated.'),
        onError: (e) => {
          setErrors(fieldErrorsOf(e));
          toast.error(messageOf(e));
        },
      },
    );
  };
  const text = (value: string, onChange: (v: string) => void, extra: Record<string, unknown> = {}) => <input type="text" value={value} disabled={!canEdit} onChange={(e) => onChange(e.target.value)} {...extra} />;
  const num = (value: number, onChange: (v: number) => void) => <input type="number" value={Number.isNaN(value) ? '' : value} disabled={!canEdit} onChange={(e) => onChange(e.target.value === '' ? Number.NaN : Number(e.target.value))} />;

  return (
    <div className="page">
      <PageHeader title="General settings" subtitle="Job alarm defaults, and the servers the alarms go through." />
      <AlarmsNav />
      <div className="alarm-settings">
        <Card title="Job alarm defaults">
          <p className="muted">An alarmed job sends these unless it has settings of its own. A failure (restart attempts ran out) always alarms.</p>
          <div className="alarm-switches">
            {SWITCHES.map(([key, label]) => (
              <LabeledSwitch key={key} label={label} checked={general[key] as boolean} disabled={!canEdit} onChange={(v) => setGeneral({ ...general, [key]: v })} />
            ))}
          </div>
          <div className="alarm-switches">
            <LabeledSwitch label="E-mail" checked={general.email} disabled={!canEdit} onChange={(v) => setGeneral({ ...general, email: v })} />
            <LabeledSwitch label="SMS" checked={general.smsEnabled} disabled={!canEdit} onChange={(v) => setGeneral({ ...general, smsEnabled: v })} />
          </div>
          <RecipientsEditor value={general} disabled={!canEdit} onChange={(r) => setGeneral({ ...general, ...r })} />
        </Card>
        <Card title="E-mail server settings">
          <div className="alarm-form-grid">
            <Field label="SMTP host">{text(email.emailSmtpHost, (v) => setEmail({ ...email, emailSmtpHost: v }), { placeholder: 'smtp.example.com' })}</Field>
            <Field label="SMTP port" error={errorOf('emailServer.emailSmtpPort')}>{num(email.emailSmtpPort, (v) => setEmail({ ...email, emailSmtpPort: v }))}</Field>
            <Field label="E-mail address" error={errorOf('emailServer.emailAddress')}>{text(email.emailAddress, (v) => setEmail({ ...email, emailAddress: v }), { placeholder: 'alarms@example.com' })}</Field>
            <Field label="Login">{text(email.emailLogin, (v) => setEmail({ ...email, emailLogin: v }))}</Field>
            <Field label="Password" hint={settings.data.emailServer.emailPasswordSet ? 'A password is stored; leave empty to keep it.' : undefined}>
              <input type="password" autoComplete="new-password" value={email.emailPassword ?? ''} disabled={!canEdit} onChange={(e) => setEmail({ ...email, emailPassword: e.target.value })} />
            </Field>
            <LabeledSwitch label="TLS (secure connection)" checked={email.emailSecure} disabled={!canEdit} onChange={(v) => setEmail({ ...email, emailSecure: v })} />
          </div>
          {canEdit && (
            <div className="alarm-test-email">
              <input type="email" aria-label="Test address" placeholder="Send a test mail to" value={testAddress} onChange={(e) => setTestAddress(e.target.value)} />
              <button
                type="button"
                className="button button-secondary"
                disabled={!testAddress || testEmail.isPending}
                onClick={() => testEmail.mutate(testAddress, { onSuccess: () => toast.success(`Test mail sent to ${testAddress}.`), onError: (e) => toast.error(messageOf(e)) })}
              >
                Send test mail
              </button>
            </div>
          )}
        </Card>
        <Card title="SMS provider settings">
          <div className="alarm-form-grid">
            <Field label="Provider URL" hint="{to}, {text}, {login} and {password} are filled in." error={errorOf('smsProvider.smsUrl')}>
              {text(sms.smsUrl, (v) => setSms({ ...sms, smsUrl: v }), { placeholder: 'https://sms.example.com/send?to={to}' })}
            </Field>
            <Field label="Method">
              <select value={sms.smsMethod} disabled={!canEdit} onChange={(e) => setSms({ ...sms, smsMethod: e.target.value as Sms['smsMethod'] })}>
                <option value="POST">POST</option>
                <option value="GET">GET</option>
              </select>
            </Field>
            <Field label="Body" className="alarm-form-wide">
              <textarea rows={2} value={sms.smsBody} disabled={!canEdit || sms.smsMethod === 'GET'} onChange={(e) => setSms({ ...sms, smsBody: e.target.value })} />
            </Field>
            <Field label="Login">{text(sms.smsLogin, (v) => setSms({ ...sms, smsLogin: v }))}</Field>
            <Field label="Password" hint={settings.data.smsProvider.smsPasswordSet ? 'A password is stored; leave empty to keep it.' : undefined}>
              <input type="password" autoComplete="new-password" value={sms.smsPassword ?? ''} disabled={!canEdit} onChange={(e) => setSms({ ...sms, smsPassword: e.target.value })} />
            </Field>
            <Field label="Amount of SMS" error={errorOf('smsProvider.amountOfSms')}>{num(sms.amountOfSms, (v) => setSms({ ...sms, amountOfSms: v }))}</Field>
            <Field label="Number of time units" error={errorOf('smsProvider.numberOfTimeUnits')}>{num(sms.numberOfTimeUnits, (v) => setSms({ ...sms, numberOfTimeUnits: v }))}</Field>
            <Field label="Time unit">
              <select value={sms.timeUnit} disabled={!canEdit} onChange={(e) => setSms({ ...sms, timeUnit: e.target.value as Sms['timeUnit'] })}>
                <option value="MINS">MINS</option>
                <option value="HOURS">HOURS</option>
              </select>
            </Field>
          </div>
        </Card>
      </div>
      {canEdit && (
        <div className="alarm-actions">
          <button type="button" className="button" disabled={invalid || update.isPending} onClick={save}>
            Save
          </button>
        </div>
      )}
    </div>
  );
}
