import {
  ADMIN_ROLE,
  RESOURCES,
  VIEW_SUB_FLAGS,
  grantedPermissions,
  hiddenPermissions,
  levelOf,
  type ResourceDefinition,
  type ResourceKey,
  type ResourcePermission,
  type UserPermissionMap,
} from '../../openapi/permissions.ts';
import { ROLE_NAMES, type UserCreateInput, type UserDto, type UserUpdateInput } from '../../openapi/schemas/users.ts';
import { hashPassword } from '../auth/passwords.ts';
import { principalOf, type Principal } from '../auth/principal.ts';
import type { UserRow } from '../db/tables.ts';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { SessionsRepository } from '../repositories/sessions.repository.ts';
import { isUsernameTakenError, type UsersRepository } from '../repositories/users.repository.ts';

export function userToDto(row: UserRow): UserDto {
  const role = row.role === ADMIN_ROLE ? 'ADMIN' : 'USER';
  return {
    id: row.id,
    username: row.username,
    role: { value: role, name: ROLE_NAMES[role] },
    email: row.email,
    phoneNumber: row.phone_number,
    enabled: row.enabled,
    permissions: normalisePermissions(row.permissions as UserPermissionMap) as UserDto['permissions'],
    relaysLimit: row.relays_limit,
    encodingsLimit: row.encodings_limit,
    timeshiftPlayersLimit: row.timeshift_players_limit,
    timeshiftRecordersLimit: row.timeshift_recorders_limit,
    grantedPermissions: [...principalOf(row, 'session').granted],
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Every resource present; Edit clears the View sub-flags (it holds them already); View keeps only ticked ones. */
export function normalisePermissions(input: UserPermissionMap | undefined): UserPermissionMap {
  const out = hiddenPermissions();
  for (const resource of RESOURCES as readonly ResourceDefinition[]) {
    const given = input?.[resource.key as ResourceKey];
    if (!given) continue;
    const level = given.level === `${resource.prefix}_EDIT` && !resource.viewOnly ? `${resource.prefix}_EDIT` : `${resource.prefix}_VIEW`;
    const permission: ResourcePermission = { level, hide: Boolean(given.hide) };
    if (resource.subFlags && level.endsWith('_VIEW')) for (const flag of VIEW_SUB_FLAGS) permission[flag.key] = Boolean(given[flag.key]);
    out[resource.key as ResourceKey] = permission;
  }
  return out;
}

/**
 * An editor who is not ADMIN may grant only what it holds itself: no ADMIN role, no level or
 * sub-flag above its own on any resource. What the user holds already (`current`) it may keep, so an
 * editor can change the e-mail of a user who holds more than the editor does.
 */
function assertGrantable(editor: Principal, role: string, permissions: UserPermissionMap, current?: UserRow): void {
  if (editor.role === ADMIN_ROLE) return;
  if (role === ADMIN_ROLE) throw new ForbiddenError('Only an ADMIN can give the ADMIN role.', 'GRANT_REFUSED');
  const held = current ? grantedPermissions(current.role, current.permissions as UserPermissionMap) : new Set<string>();
  for (const resource of RESOURCES as readonly ResourceDefinition[]) {
    const permission = permissions[resource.key as ResourceKey];
    const level = levelOf(resource, permission);
    if (!level) continue;
    const needed = [`${resource.prefix}_${level}`];
    if (level === 'VIEW' && resource.subFlags) for (const flag of VIEW_SUB_FLAGS) if (permission?.[flag.key]) needed.push(`${resource.prefix}_${flag.suffix}`);
    const missing = needed.find((name) => !editor.granted.has(name) && !held.has(name));
    if (missing) throw new ForbiddenError(`permissions.${resource.key}: you cannot grant ${missing}, which you do not hold.`, 'GRANT_REFUSED');
  }
}

const emptyToNull = (value: string | null | undefined) => (value ? value : null);

/** The columns a create or an update writes from the form (all but the password). */
function userColumns(input: UserCreateInput | UserUpdateInput, permissions: UserPermissionMap) {
  return {
    username: input.username,
    role: input.role,
    email: emptyToNull(input.email),
    phone_number: emptyToNull(input.phoneNumber),
    enabled: input.enabled,
    permissions: JSON.stringify(permissions),
    relays_limit: input.relaysLimit,
    encodings_limit: input.encodingsLimit,
    timeshift_players_limit: input.timeshiftPlayersLimit,
    timeshift_recorders_limit: input.timeshiftRecordersLimit,
  };
}

const usernameTaken = (username: string) =>
  new ConflictError(`username: Username ${username} is already taken.`, 'USERNAME_TAKEN', [{ path: 'body.username', message: 'Username is already taken' }]);

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly events: EventBus,
    /** Called at every change, before the event goes out: this process's requests see it at once. */
    private readonly credentialsChanged: () => void = () => {},
  ) {}

  async list(query: { search?: string; page: number; size: number; sort: 'username' | 'id'; order: 'asc' | 'desc'; enabled?: 'true' | 'false'; role?: string }) {
    const { rows, total, counts } = await this.users.list({
      search: query.search?.trim() || undefined,
      enabled: query.enabled === undefined ? undefined : query.enabled === 'true',
      role: query.role,
      sort: query.sort,
      order: query.order,
      offset: (query.page - 1) * query.size,
      limit: query.size,
    });
    return { items: rows.map(userToDto), total, page: query.page, size: query.size, counts };
  }

  async get(id: number): Promise<UserDto> {
    return userToDto(await this.require(this.users, id));
  }

  async create(editor: Principal, input: UserCreateInput): Promise<UserDto> {
    const permissions = normalisePermissions(input.permissions as UserPermissionMap | undefined);
    assertGrantable(editor, input.role, permissions);
    await this.assertUsernameFree(this.users, input.username);
    const row = await this.users
      .insert({
        ...userColumns(input, permissions),
        password_hash: await hashPassword(input.password),
      })
      .catch((error: unknown) => {
        throw isUsernameTakenError(error) ? usernameTaken(input.username) : error;
      });
    await this.changed('created', row.id);
    return userToDto(row);
  }

  async update(editor: Principal, id: number, input: UserUpdateInput): Promise<UserDto> {
    const permissions = normalisePermissions(input.permissions as UserPermissionMap | undefined);
    // Hashed before the lock is taken: argon2 takes a while and the lock serialises every user change.
    const passwordHash = input.password ? await hashPassword(input.password) : undefined;
    const { current, updated } = await this.users.withChangeLock(async (users) => {
      editor = await this.editorNow(users, editor);
      const current = await this.require(users, id);
      if (editor.role !== ADMIN_ROLE && current.role === ADMIN_ROLE) throw new ForbiddenError('Only an ADMIN can change an ADMIN user.', 'GRANT_REFUSED');
      assertGrantable(editor, input.role, permissions, current);
      if (input.username.toLowerCase() !== current.username.toLowerCase()) await this.assertUsernameFree(users, input.username);
      if (id === editor.userId && !input.enabled) throw new ConflictError('You cannot disable yourself.', 'SELF_DISABLE');
      if (current.role === ADMIN_ROLE && current.enabled && (input.role !== ADMIN_ROLE || !input.enabled)) await this.assertNotLastAdmin(users, id);
      const updated = await users
        .update(id, {
          ...userColumns(input, permissions),
          ...(passwordHash ? { password_hash: passwordHash, password_changed_at: new Date() } : {}),
        })
        .catch((error: unknown) => {
          throw isUsernameTakenError(error) ? usernameTaken(input.username) : error;
        });
      if (!updated) throw new NotFoundError('User', id);
      return { current, updated };
    });
    // A new password, a new role or a disabled account ends the sessions opened before.
    if (passwordHash || !input.enabled || input.role !== current.role) await this.sessions.deleteForUser(id);
    await this.changed('updated', id);
    return userToDto(updated);
  }

  async setEnabled(editor: Principal, id: number, enabled: boolean): Promise<UserDto> {
    const updated = await this.users.withChangeLock(async (users) => {
      editor = await this.editorNow(users, editor);
      const current = await this.require(users, id);
      if (!enabled && id === editor.userId) throw new ConflictError('You cannot disable yourself.', 'SELF_DISABLE');
      if (editor.role !== ADMIN_ROLE && current.role === ADMIN_ROLE) throw new ForbiddenError('Only an ADMIN can change an ADMIN user.', 'GRANT_REFUSED');
      if (!enabled && current.role === ADMIN_ROLE && current.enabled) await this.assertNotLastAdmin(users, id);
      const updated = await users.update(id, { enabled });
      if (!updated) throw new NotFoundError('User', id);
      return updated;
    });
    if (!enabled) await this.sessions.deleteForUser(id);
    await this.changed(enabled ? 'enabled' : 'disabled', id);
    return userToDto(updated);
  }

  async delete(editor: Principal, id: number): Promise<void> {
    await this.users.withChangeLock(async (users) => {
      editor = await this.editorNow(users, editor);
      const current = await this.require(users, id);
      if (id === editor.userId) throw new ConflictError('You cannot delete yourself.', 'SELF_DELETE');
      if (editor.role !== ADMIN_ROLE && current.role === ADMIN_ROLE) throw new ForbiddenError('Only an ADMIN can delete an ADMIN user.', 'GRANT_REFUSED');
      if (current.role === ADMIN_ROLE && current.enabled) await this.assertNotLastAdmin(users, id);
      await users.delete(id);
    });
    await this.changed('deleted', id);
  }

  /**
   * The editor as it stands now, under the lock: a request authenticated just before its user was
   * disabled, deleted or demoted by a concurrent change acts with what is left of it.
   */
  private async editorNow(users: UsersRepository, editor: Principal): Promise<Principal> {
    const row = await users.findById(editor.userId);
    if (!row || !row.enabled) throw new UnauthorizedError();
    return principalOf(row, editor.via, editor.sessionIdHash);
  }

  private async require(users: UsersRepository, id: number): Promise<UserRow> {
    const row = await users.findById(id);
    if (!row) throw new NotFoundError('User', id);
    return row;
  }

  private async assertUsernameFree(users: UsersRepository, username: string): Promise<void> {
    if (await users.findByUsername(username)) throw usernameTaken(username);
  }

  private async assertNotLastAdmin(users: UsersRepository, exceptId: number): Promise<void> {
    if ((await users.countEnabledAdmins(exceptId)) === 0) throw new ConflictError('This is the last enabled ADMIN user; keep it.', 'LAST_ADMIN');
  }

  private changed(type: string, id: number): Promise<void> {
    this.credentialsChanged();
    return this.events.publish({ topic: 'users', type, id });
  }
}
