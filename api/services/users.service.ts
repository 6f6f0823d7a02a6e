import {
  ADMIN_ROLE,
  RESOURCES,
  VIEW_SUB_FLAGS,
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
import { ConflictError, ForbiddenError, NotFoundError } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { SessionsRepository } from '../repositories/sessions.repository.ts';
import type { UsersRepository } from '../repositories/users.repository.ts';

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
 * sub-flag above its own on any resource.
 */
function assertGrantable(editor: Principal, role: string, permissions: UserPermissionMap): void {
  if (editor.role === ADMIN_ROLE) return;
  if (role === ADMIN_ROLE) throw new ForbiddenError('Only an ADMIN can give the ADMIN role.', 'GRANT_REFUSED');
  for (const resource of RESOURCES as readonly ResourceDefinition[]) {
    const permission = permissions[resource.key as ResourceKey];
    const level = levelOf(resource, permission);
    if (!level) continue;
    const needed = [`${resource.prefix}_${level}`];
    if (level === 'VIEW' && resource.subFlags) for (const flag of VIEW_SUB_FLAGS) if (permission?.[flag.key]) needed.push(`${resource.prefix}_${flag.suffix}`);
    const missing = needed.find((name) => !editor.granted.has(name));
    if (missing) throw new ForbiddenError(`permissions.${resource.key}: you cannot grant ${missing}, which you do not hold.`, 'GRANT_REFUSED');
  }
}

const emptyToNull = (value: string | null | undefined) => (value ? value : null);

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly events: EventBus,
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
    return userToDto(await this.require(id));
  }

  async create(editor: Principal, input: UserCreateInput): Promise<UserDto> {
    const permissions = normalisePermissions(input.permissions as UserPermissionMap | undefined);
    assertGrantable(editor, input.role, permissions);
    await this.assertUsernameFree(input.username);
    const row = await this.users.insert({
      username: input.username,
      password_hash: await hashPassword(input.password),
      role: input.role,
      email: emptyToNull(input.email),
      phone_number: emptyToNull(input.phoneNumber),
      enabled: input.enabled,
      permissions: JSON.stringify(permissions),
      relays_limit: input.relaysLimit,
      encodings_limit: input.encodingsLimit,
      timeshift_players_limit: input.timeshiftPlayersLimit,
      timeshift_recorders_limit: input.timeshiftRecordersLimit,
    });
    await this.changed('created', row.id);
    return userToDto(row);
  }

  async update(editor: Principal, id: number, input: UserUpdateInput): Promise<UserDto> {
    const current = await this.require(id);
    const permissions = normalisePermissions(input.permissions as UserPermissionMap | undefined);
    assertGrantable(editor, input.role, permissions);
    if (editor.role !== ADMIN_ROLE && current.role === ADMIN_ROLE) throw new ForbiddenError('Only an ADMIN can change an ADMIN user.', 'GRANT_REFUSED');
    if (input.username.toLowerCase() !== current.username.toLowerCase()) await this.assertUsernameFree(input.username);
    if (current.role === ADMIN_ROLE && current.enabled && (input.role !== ADMIN_ROLE || !input.enabled)) await this.assertNotLastAdmin(id);
    if (id === editor.userId && !input.enabled) throw new ConflictError('You cannot disable yourself.', 'SELF_DISABLE');
    const passwordChanged = Boolean(input.password);
    const updated = await this.users.update(id, {
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
      ...(passwordChanged ? { password_hash: await hashPassword(input.password as string), password_changed_at: new Date() } : {}),
    });
    if (!updated) throw new NotFoundError('User', id);
    // A new password, a new role or a disabled account ends the sessions opened before.
    if (passwordChanged || !input.enabled || input.role !== current.role) await this.sessions.deleteForUser(id);
    await this.changed('updated', id);
    return userToDto(updated);
  }

  async setEnabled(editor: Principal, id: number, enabled: boolean): Promise<UserDto> {
    const current = await this.require(id);
    if (!enabled && id === editor.userId) throw new ConflictError('You cannot disable yourself.', 'SELF_DISABLE');
    if (editor.role !== ADMIN_ROLE && current.role === ADMIN_ROLE) throw new ForbiddenError('Only an ADMIN can change an ADMIN user.', 'GRANT_REFUSED');
    if (!enabled && current.role === ADMIN_ROLE && current.enabled) await this.assertNotLastAdmin(id);
    const updated = await this.users.update(id, { enabled });
    if (!updated) throw new NotFoundError('User', id);
    if (!enabled) await this.sessions.deleteForUser(id);
    await this.changed(enabled ? 'enabled' : 'disabled', id);
    return userToDto(updated);
  }

  async delete(editor: Principal, id: number): Promise<void> {
    const current = await this.require(id);
    if (id === editor.userId) throw new ConflictError('You cannot delete yourself.', 'SELF_DELETE');
    if (editor.role !== ADMIN_ROLE && current.role === ADMIN_ROLE) throw new ForbiddenError('Only an ADMIN can delete an ADMIN user.', 'GRANT_REFUSED');
    if (current.role === ADMIN_ROLE && current.enabled) await this.assertNotLastAdmin(id);
    await this.users.delete(id);
    await this.changed('deleted', id);
  }

  private async require(id: number): Promise<UserRow> {
    const row = await this.users.findById(id);
    if (!row) throw new NotFoundError('User', id);
    return row;
  }

  private async assertUsernameFree(username: string): Promise<void> {
    if (await this.users.findByUsername(username)) {
      throw new ConflictError(`username: Username ${username} is already taken.`, 'USERNAME_TAKEN', [{ path: 'body.username', message: 'Username is already taken' }]);
    }
  }

  private async assertNotLastAdmin(exceptId: number): Promise<void> {
    if ((await this.users.countEnabledAdmins(exceptId)) === 0) throw new ConflictError('This is the last enabled ADMIN user; keep it.', 'LAST_ADMIN');
  }

  private changed(type: string, id: number): Promise<void> {
    return this.events.publish({ topic: 'users', type, id });
  }
}
