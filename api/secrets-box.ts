import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { persistentValue } from './config.ts';

/**
 * Encrypts the secrets the spec shows masked (streampool server API keys, the Redis password)
 * with AES-256-GCM under a key from MEDIAPLANE_SECRET_KEY or, without it, a random key kept in
 * the data directory (`secret-key`, mode 0600). Every API process of a cluster must share the key.
 */
export class SecretsBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(secret).digest();
  }

  static fromDataDir(dataDir: string, env: NodeJS.ProcessEnv = process.env): SecretsBox {
    const secret = env.MEDIAPLANE_SECRET_KEY || persistentValue(dataDir, 'secret-key', () => randomBytes(32).toString('base64url'));
    return new SecretsBox(secret);
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** The spec's mask: only the last 9 characters of a key are visible. */
export function maskSecret(secret: string, visible = 9): string {
  if (secret.length <= visible) return secret;
  return `${'*'.repeat(Math.min(secret.length - visible, 16))}${secret.slice(-visible)}`;
}
