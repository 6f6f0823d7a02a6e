/** The e-mail server settings as the sender needs them (the password decrypted). */
export interface SmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  from: string;
}

export interface SmsConfig {
  url: string;
  method: 'GET' | 'POST';
  body: string;
  login: string;
  password: string;
}

export interface Message {
  to: string;
  subject: string;
  text: string;
}

/** Send one mail through SMTP (nodemailer); throws with the server's or the socket's message. */
export async function sendMail(config: SmtpConfig, message: Message): Promise<string> {
  if (!config.host) throw new Error('no e-mail server is set (General settings: e-mail server settings)');
  // Loaded on the first mail: a node that never mails keeps nodemailer out of its heap.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port || (config.secure ? 465 : 587),
    secure: config.secure,
    auth: config.user ? { user: config.user, pass: config.password } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    // A local relay with a self-signed certificate is common on headends.
    tls: { rejectUnauthorized: false },
  });
  try {
    const info = await transport.sendMail({ from: config.from || `mediaplane@${config.host}`, to: message.to, subject: message.subject, text: message.text });
    return String(info.messageId ?? '');
  } finally {
    transport.close();
  }
}

function fill(template: string, values: Record<string, string>, encode: (v: string) => string): string {
  return template.replace(/\{(to|text|login|password)\}/g, (_, key: string) => encode(values[key] ?? ''));
}

/** The request an SMS becomes: the provider's URL and body templates filled in. */
export function smsRequest(config: SmsConfig, message: Message): { url: string; init: RequestInit } {
  const values = { to: message.to, text: `${message.subject}\n${message.text}`.slice(0, 600), login: config.login, password: config.password };
  const url = fill(config.url, values, encodeURIComponent);
  if (config.method === 'GET') return { url, init: { method: 'GET' } };
  const json = config.body.trim().startsWith('{');
  const body = fill(config.body, values, json ? (v) => JSON.stringify(v).slice(1, -1) : encodeURIComponent);
  return { url, init: { method: 'POST', body, headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded' } } };
}

/** Send one SMS through the HTTP provider; a status other than 2xx is an error. */
export async function sendSms(config: SmsConfig, message: Message): Promise<void> {
  if (!config.url) throw new Error('no SMS provider is set (General settings: SMS provider settings)');
  if (!/^https?:\/\//i.test(config.url)) throw new Error('the SMS provider URL must start with http:// or https://');
  const { url, init } = smsRequest(config, message);
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  if (!response.ok) throw new Error(`the SMS provider answered ${response.status} ${(await response.text()).slice(0, 200)}`);
}
