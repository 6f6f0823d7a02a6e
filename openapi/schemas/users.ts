import { z } from 'zod';
import { RESOURCES, VIEW_SUB_FLAGS, type ResourceDefinition } from '../permissions.ts';
import { Timestamp } from './common.ts';

/** Role names: ADMIN is the spec's; USER is every other user, whose rights are its permissions. */
export const RoleName = z.enum(['ADMIN', 'USER']).meta({ id: 'RoleName', description: 'ADMIN holds every permission implicitly; USER holds the permissions it is given.' });

export const Role = z
  .object({ value: RoleName, name: z.string().describe('Display name of the role.') })
  .meta({ id: 'Role', description: 'A role, with its value and display name.' });

export const ROLE_NAMES: Record<z.infer<typeof RoleName>, string> = { ADMIN: 'Admin', USER: 'User' };

function resourcePermissionSchema(resource: ResourceDefinition) {
  const levels = resource.viewOnly ? [`${resource.prefix}_VIEW`] : [`${resource.prefix}_VIEW`, `${resource.prefix}_EDIT`];
  const shape: Record<string, z.ZodType> = {
    level: z.enum(levels as [string, ...string[]]).describe(`Level on ${resource.label}: ${levels.join(' or ')}.`),
    hide: z.boolean().describe('Hidden: the user neither sees nor changes this area.'),
  };
  if (resource.subFlags) {
    for (const flag of VIEW_SUB_FLAGS) {
      shape[flag.key] = z
        .boolean()
        .optional()
        .describe(`At View level: grants ${resource.prefix}_${flag.suffix}. Cleared by the Edit level, which holds it already.`);
    }
  }
  return z.object(shape).describe(`Permission on ${resource.label}.`);
}

export const UserPermissions = z
  .object(Object.fromEntries((RESOURCES as readonly ResourceDefinition[]).map((r) => [r.key, resourcePermissionSchema(r).optional()])))
  .meta({ id: 'UserPermissions', description: 'Per resource a View or Edit level plus Hide; View sub-flags for the job resources.' });

const limit = (label: string) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must be at least 0`)
    .max(1000, `${label} must be at most 1000`)
    .describe(`${label}: 0 to 1000; 0 means no limit. Applies only at the Edit level.`);

export const UserLimits = {
  relaysLimit: limit('Relays limit'),
  encodingsLimit: limit('Encodings limit'),
  timeshiftPlayersLimit: limit('Playbacks limit'),
  timeshiftRecordersLimit: limit('Recorders limit'),
};

export const User = z
  .object({
    id: z.number().int(),
    username: z.string(),
    role: Role,
    email: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    enabled: z.boolean(),
    permissions: UserPermissions,
    ...UserLimits,
    grantedPermissions: z.array(z.string()).describe('The flat permission names this user holds (ADMIN: all).'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'User', description: 'A user of the console, the CLI and the API.' });

/** Spec 03 §5, messages verbatim. */
const username = z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(100, 'Username is too long').regex(/^[A-Za-z0-9._@-]*$/, 'Username may contain letters, digits and . _ @ - only');
const email = z
  .union([z.literal(''), z.email('This doesn\'t look like valid e-mail').max(100, 'E-mail is too long')])
  .nullable()
  .optional()
  .describe('E-mail address, max 100 characters.');
const phoneNumber = z
  .union([z.literal(''), z.string().max(100, 'Phone number is too long').regex(/^\+?[0-9-]+$/, 'This doesn\'t look like phone number')])
  .nullable()
  .optional()
  .describe('Optional leading plus, then digits and hyphens; max 100 characters.');
const password = z.string().min(8, 'Password must be at least 8 characters').max(200, 'Password is too long');

const userFields = {
  username,
  role: RoleName.describe('Role is required'),
  email,
  phoneNumber,
  enabled: z.boolean().default(true),
  permissions: UserPermissions.optional(),
  relaysLimit: UserLimits.relaysLimit.default(0),
  encodingsLimit: UserLimits.encodingsLimit.default(0),
  timeshiftPlayersLimit: UserLimits.timeshiftPlayersLimit.default(0),
  timeshiftRecordersLimit: UserLimits.timeshiftRecordersLimit.default(0),
};

export const UserCreate = z
  .object({
    ...userFields,
    role: z.enum(['ADMIN', 'USER'], { error: 'Role is required' }),
    password: z.string({ error: 'Password is required' }).min(1, 'Password is required').pipe(password),
    confirm: z.string({ error: 'Confirm password is required' }).min(1, 'Confirm password is required'),
  })
  // Compared only when both are typed: a missing one already has its "is required".
  .refine((u) => !u.password || !u.confirm || u.password === u.confirm, { path: ['confirm'], message: 'Passwords do not match' })
  .meta({ id: 'UserCreate', description: 'A new user. Password and its confirmation are required.' });

export const UserUpdate = z
  .object({
    ...userFields,
    role: z.enum(['ADMIN', 'USER'], { error: 'Role is required' }),
    password: z.union([z.literal(''), password]).optional().describe('A new password; empty or absent keeps the current one.'),
    confirm: z.string().optional(),
  })
  .refine((u) => !u.password || (u.confirm ?? '') !== '', { path: ['confirm'], message: 'Confirm password is required' })
  .refine((u) => !u.password || !u.confirm || u.password === u.confirm, { path: ['confirm'], message: 'Passwords do not match' })
  .meta({ id: 'UserUpdate', description: 'The whole user as saved by the form; a password only when it changes.' });

export const UserEnabled = z.object({ enabled: z.boolean() }).meta({ id: 'UserEnabled', description: 'Enable or disable a user.' });

export const UserListQuery = z.object({
  search: z.string().max(200).optional().describe('Matches username or e-mail (case-insensitive), or an exact ID.'),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(500).default(25),
  sort: z.enum(['username', 'id']).default('username'),
  order: z.enum(['asc', 'desc']).default('asc'),
  enabled: z.enum(['true', 'false']).optional().describe('Only enabled (true) or disabled (false) users.'),
  role: RoleName.optional(),
});

export const UserCounts = z.object({
  total: z.number().int().describe('Total users.'),
  active: z.number().int().describe('Enabled users.'),
  failed: z.number().int().describe('Disabled users.'),
});

export const UserPage = z
  .object({ items: z.array(User), total: z.number().int(), page: z.number().int(), size: z.number().int(), counts: UserCounts })
  .meta({ id: 'UserPage', description: 'A page of users with the footer counts.' });

export const LoginHistoryEntry = z
  .object({
    id: z.number().int(),
    createdAt: Timestamp,
    username: z.string(),
    ip: z.string(),
    location: z.string().nullable().describe('Country (ISO 3166 code) from the local GeoIP database; null for private addresses.'),
    userAgent: z.string(),
    success: z.boolean(),
    reason: z.string().nullable().describe('Why a failed attempt failed (wrong credentials, disabled, throttled).'),
  })
  .meta({ id: 'LoginHistoryEntry', description: 'One sign-in attempt.' });

export const LoginHistoryQuery = z.object({
  search: z.string().max(200).optional().describe('Matches username, IP, country or user agent.'),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(500).default(25),
  order: z.enum(['asc', 'desc']).default('desc'),
});

export const LoginHistoryPage = z
  .object({ items: z.array(LoginHistoryEntry), total: z.number().int(), page: z.number().int(), size: z.number().int() })
  .meta({ id: 'LoginHistoryPage', description: 'A page of the login history, newest first.' });

export type UserDto = z.infer<typeof User>;
export type UserCreateInput = z.infer<typeof UserCreate>;
export type UserUpdateInput = z.infer<typeof UserUpdate>;
