import { createHash, randomBytes } from 'node:crypto';

/** A random secret for a session id or an API token. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Session ids and tokens are stored only as their SHA-256. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A readable random password for a new admin. */
export function newPassword(): string {
  return randomBytes(12).toString('base64url');
}
