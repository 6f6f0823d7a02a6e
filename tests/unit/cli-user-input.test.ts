import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Schemas } from '../../openapi/client/index.ts';
import { createBody, readBodyFile, updateBody } from '../../cli/user-input.ts';

const current = {
  id: 4,
  username: 'operator',
  role: { value: 'USER', name: 'User' },
  email: 'op@example.com',
  phoneNumber: null,
  enabled: true,
  permissions: { relay: { level: 'RELAY_VIEW', hide: false } },
  relaysLimit: 5,
  encodingsLimit: 0,
  timeshiftPlayersLimit: 0,
  timeshiftRecordersLimit: 0,
  grantedPermissions: ['RELAY_VIEW'],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
} as Schemas['User'];

describe('createBody', () => {
  it('sends the flags under the API\'s names, the password confirmed by itself', () => {
    expect(createBody({ username: 'a', role: 'USER', phone: '+1', password: 'pw-123456', disabled: true, relaysLimit: 3 })).toEqual({
      username: 'a',
      role: 'USER',
      phoneNumber: '+1',
      password: 'pw-123456',
      confirm: 'pw-123456',
      enabled: false,
      relaysLimit: 3,
    });
  });

  it('lets flags override the file', () => {
    const body = createBody({ email: 'flag@example.com', password: 'from-flag-1' }, { username: 'f', role: 'USER', email: 'file@example.com', password: 'from-file-1', confirm: 'from-file-1' });
    expect(body).toMatchObject({ username: 'f', email: 'flag@example.com', password: 'from-flag-1', confirm: 'from-flag-1' });
  });

  it('refuses --enabled with --disabled', () => {
    expect(() => createBody({ enabled: true, disabled: true })).toThrow(/exclude each other/);
  });
});

describe('updateBody', () => {
  it('starts from the user as it is and changes only what is given, without a password', () => {
    const body = updateBody(current, { email: '' });
    expect(body).toEqual({
      username: 'operator',
      role: 'USER',
      email: '',
      phoneNumber: null,
      enabled: true,
      permissions: { relay: { level: 'RELAY_VIEW', hide: false } },
      relaysLimit: 5,
      encodingsLimit: 0,
      timeshiftPlayersLimit: 0,
      timeshiftRecordersLimit: 0,
    });
  });

  it('sends a new password with its confirmation only when one is given', () => {
    expect(updateBody(current, { password: 'new-password-1' })).toMatchObject({ password: 'new-password-1', confirm: 'new-password-1' });
  });
});

describe('readBodyFile', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mediaplane-body-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('reads JSON and YAML', async () => {
    await expect(readBodyFile(file('u.json', '{"username":"j","relaysLimit":2}'))).resolves.toEqual({ username: 'j', relaysLimit: 2 });
    await expect(readBodyFile(file('u.yaml', 'username: y\npermissions:\n  relay: { level: RELAY_EDIT, hide: false }\n'))).resolves.toEqual({
      username: 'y',
      permissions: { relay: { level: 'RELAY_EDIT', hide: false } },
    });
    await expect(readBodyFile('-', () => 'username: stdin\n')).resolves.toEqual({ username: 'stdin' });
  });

  it('says what is wrong with a file it cannot use', async () => {
    await expect(readBodyFile(file('bad.json', '{oops'))).rejects.toMatchObject({ code: 'FILE_INVALID' });
    await expect(readBodyFile(file('list.yaml', '- a\n- b\n'))).rejects.toThrow(/one user object/);
    await expect(readBodyFile(path.join(dir, 'missing.yaml'))).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
  });
});
