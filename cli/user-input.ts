import { readFileSync } from 'node:fs';
import type { Schemas } from '../openapi/client/index.ts';
import { CliError } from './output.ts';

/** The flags of `users create` and `users update`. */
export interface UserFlags {
  username?: string;
  role?: 'ADMIN' | 'USER';
  email?: string;
  phone?: string;
  password?: string;
  enabled?: boolean;
  disabled?: boolean;
  relaysLimit?: number;
  encodingsLimit?: number;
  timeshiftPlayersLimit?: number;
  timeshiftRecordersLimit?: number;
  file?: string;
}

type Body = Record<string, unknown>;

/**
 * A user body from `--file`: JSON or YAML (YAML 1.2 reads JSON too, so only `.json` files go
 * through JSON.parse, for its sharper messages); `-` reads stdin. The field names are the API's.
 */
export async function readBodyFile(file: string, readStdin: () => string = () => readFileSync(0, 'utf8')): Promise<Body> {
  let text: string;
  try {
    text = file === '-' ? readStdin() : readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError('FILE_UNREADABLE', `cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = file.toLowerCase().endsWith('.json') ? JSON.parse(text) : (await import('yaml')).parse(text);
  } catch (error) {
    throw new CliError('FILE_INVALID', `${file} is neither valid JSON nor YAML: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new CliError('FILE_INVALID', `${file} must hold one user object, with the API's field names (username, role, email, ...)`);
  return parsed as Body;
}

/** Only the fields the flags give, under the API's names. */
export function fieldsFromFlags(flags: UserFlags): Body {
  if (flags.enabled && flags.disabled) throw new CliError('INVALID_OPTIONS', '--enabled and --disabled exclude each other');
  const fields: Body = {
    username: flags.username,
    role: flags.role,
    email: flags.email,
    phoneNumber: flags.phone,
    password: flags.password,
    enabled: flags.enabled ? true : flags.disabled ? false : undefined,
    relaysLimit: flags.relaysLimit,
    encodingsLimit: flags.encodingsLimit,
    timeshiftPlayersLimit: flags.timeshiftPlayersLimit,
    timeshiftRecordersLimit: flags.timeshiftRecordersLimit,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** Confirm equals password unless the file gave its own confirmation. */
function withConfirm(body: Body): Body {
  if (typeof body.password === 'string' && body.password !== '' && body.confirm === undefined) return { ...body, confirm: body.password };
  return body;
}

/** The body of `users create`: the file, then the flags over it. The API checks every rule. */
export function createBody(flags: UserFlags, file: Body = {}): Schemas['UserCreate'] {
  const body = { ...file, ...fieldsFromFlags(flags) };
  if (flags.password !== undefined) delete body.confirm; // a password from the flags is confirmed by itself
  return withConfirm(body) as Schemas['UserCreate'];
}

/**
 * The body of `users update`. The API's update is a full PUT, so it starts from the user as it is
 * now and applies only the fields given; the password only when one is given.
 */
export function updateBody(current: Schemas['User'], flags: UserFlags, file: Body = {}): Schemas['UserUpdate'] {
  const base: Body = {
    username: current.username,
    role: current.role.value,
    email: current.email,
    phoneNumber: current.phoneNumber,
    enabled: current.enabled,
    permissions: current.permissions,
    relaysLimit: current.relaysLimit,
    encodingsLimit: current.encodingsLimit,
    timeshiftPlayersLimit: current.timeshiftPlayersLimit,
    timeshiftRecordersLimit: current.timeshiftRecordersLimit,
  };
  const given = { ...file, ...fieldsFromFlags(flags) };
  if (flags.password !== undefined) delete given.confirm;
  return withConfirm({ ...base, ...given }) as Schemas['UserUpdate'];
}
