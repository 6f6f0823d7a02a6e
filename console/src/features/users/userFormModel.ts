import {
  ADMIN_ROLE,
  RESOURCES,
  VIEW_SUB_FLAGS,
  hiddenPermissions,
  type ResourceDefinition,
  type ResourceKey,
  type ResourcePermission,
  type UserPermissionMap,
} from '../../../../openapi/permissions.ts';
import type { Schemas } from '../../data/client.ts';
import type { FieldErrors } from '../../components/form/useZodForm.ts';

export const LIMIT_FIELDS = ['relaysLimit', 'encodingsLimit', 'timeshiftPlayersLimit', 'timeshiftRecordersLimit'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];

/** The user form as its inputs hold it: numbers as typed, role empty until chosen. */
export interface UserFormValues extends Record<string, unknown> {
  username: string;
  role: '' | Schemas['RoleName'];
  email: string;
  phoneNumber: string;
  password: string;
  confirm: string;
  enabled: boolean;
  permissions: UserPermissionMap;
  relaysLimit: string;
  encodingsLimit: string;
  timeshiftPlayersLimit: string;
  timeshiftRecordersLimit: string;
}

export function newUserValues(): UserFormValues {
  return {
    username: '',
    role: '',
    email: '',
    phoneNumber: '',
    password: '',
    confirm: '',
    enabled: true,
    permissions: hiddenPermissions(),
    relaysLimit: '0',
    encodingsLimit: '0',
    timeshiftPlayersLimit: '0',
    timeshiftRecordersLimit: '0',
  };
}

export function valuesOf(user: Schemas['User']): UserFormValues {
  return {
    username: user.username,
    role: user.role.value,
    email: user.email ?? '',
    phoneNumber: user.phoneNumber ?? '',
    password: '',
    confirm: '',
    enabled: user.enabled,
    permissions: { ...hiddenPermissions(), ...(user.permissions as UserPermissionMap) },
    relaysLimit: String(user.relaysLimit),
    encodingsLimit: String(user.encodingsLimit),
    timeshiftPlayersLimit: String(user.timeshiftPlayersLimit),
    timeshiftRecordersLimit: String(user.timeshiftRecordersLimit),
  };
}

/** '' and anything not a number fail the schema's "must be a whole number". */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** The body for POST/PUT /api/users, validated by UserCreate/UserUpdate as it is. */
export function toNewUserPayload(values: UserFormValues) {
  return {
    username: values.username,
    role: values.role || undefined,
    email: values.email,
    phoneNumber: values.phoneNumber,
    password: values.password,
    confirm: values.confirm,
    enabled: values.enabled,
    permissions: values.permissions,
    relaysLimit: numberOf(values.relaysLimit),
    encodingsLimit: numberOf(values.encodingsLimit),
    timeshiftPlayersLimit: numberOf(values.timeshiftPlayersLimit),
    timeshiftRecordersLimit: numberOf(values.timeshiftRecordersLimit),
  };
}

export function toUpdatePayload(values: UserFormValues) {
  const { password, confirm, ...rest } = toNewUserPayload(values);
  // No password typed: keep the current one.
  return password ? { ...rest, password, confirm } : rest;
}

/** Spec 03 §5: when editing, confirm is required once a password is typed (UserUpdate says so too). */
export function refineUpdate(values: UserFormValues): FieldErrors {
  return values.password && !values.confirm ? { confirm: 'Confirm password is required' } : {};
}

export const isAdminRole = (role: string) => role === ADMIN_ROLE;

// ---- the permissions block (spec 03 §4) ----

export type Level = 'VIEW' | 'EDIT';

export const levelName = (resource: ResourceDefinition, level: Level) => `${resource.prefix}_${level}`;
export const levelIn = (resource: ResourceDefinition, permission: ResourcePermission | undefined): Level =>
  permission?.level === `${resource.prefix}_EDIT` && !resource.viewOnly ? 'EDIT' : 'VIEW';

/** The resources of the block: Ads only when the ads feature is on. */
export function resourcesShown(features: Record<string, boolean>): ResourceDefinition[] {
  return (RESOURCES as readonly ResourceDefinition[]).filter((r) => !r.feature || features[r.feature]);
}

/** What a (non-admin) editor may set on a resource: only what it holds itself. */
export interface Grantable {
  visible: boolean;
  edit: boolean;
  subFlag: (suffix: string) => boolean;
}

export function grantableFor(resource: ResourceDefinition, editorIsAdmin: boolean, granted: ReadonlySet<string>): Grantable {
  if (editorIsAdmin) return { visible: true, edit: !resource.viewOnly, subFlag: () => true };
  return {
    visible: granted.has(`${resource.prefix}_VIEW`),
    edit: !resource.viewOnly && granted.has(`${resource.prefix}_EDIT`),
    subFlag: (suffix) => granted.has(`${resource.prefix}_${suffix}`),
  };
}

/** A level change: Edit clears the View sub-flags (it holds them already). */
export function withLevel(resource: ResourceDefinition, permission: ResourcePermission | undefined, level: Level): ResourcePermission {
  const next: ResourcePermission = { level: levelName(resource, resource.viewOnly ? 'VIEW' : level), hide: permission?.hide ?? false };
  // Edit holds every sub-flag already: they are dropped, as the API stores it.
  if (resource.subFlags && next.level.endsWith('_VIEW')) for (const flag of VIEW_SUB_FLAGS) next[flag.key] = Boolean(permission?.[flag.key]);
  return next;
}

export function withAll(map: UserPermissionMap, resources: ResourceDefinition[], change: (resource: ResourceDefinition, permission: ResourcePermission | undefined) => ResourcePermission): UserPermissionMap {
  const next = { ...map };
  for (const resource of resources) next[resource.key as ResourceKey] = change(resource, map[resource.key as ResourceKey]);
  return next;
}
