/**
 * The permission catalogue of spec 01 §6, spec 02 §6 and spec 03 §3/§6.
 *
 * A user holds, per resource, a level (View or Edit) plus a Hide flag; the four job resources
 * also carry the View sub-flags. `grantedPermissions` turns that into the flat permission names
 * (RELAY_VIEW, RELAY_VIEW_LOG, ENCODING_EDIT, ...) that operations declare and the API enforces.
 */

export interface ResourceDefinition {
  /** Key of the resource in a user's permissions, as spec 03 §3 spells it. */
  key: string;
  /** Prefix of its permission names. */
  prefix: string;
  /** Human label used by the user form. */
  label: string;
  /** Only a View level exists (STATISTICS, DIAGNOSTICS_CHECK). */
  viewOnly?: boolean;
  /** The job resources have the View sub-flags and a per-user limit. */
  subFlags?: boolean;
  limitField?: 'relaysLimit' | 'encodingsLimit' | 'timeshiftPlayersLimit' | 'timeshiftRecordersLimit';
  /** Shown only when this system feature is enabled (Ads). */
  feature?: string;
}

export const RESOURCES = [
  { key: 'relay', prefix: 'RELAY', label: 'Relays', subFlags: true, limitField: 'relaysLimit' },
  { key: 'encoding', prefix: 'ENCODING', label: 'Encodings', subFlags: true, limitField: 'encodingsLimit' },
  { key: 'timeshiftPlayers', prefix: 'TIMESHIFT_PLAYER', label: 'Playbacks', subFlags: true, limitField: 'timeshiftPlayersLimit' },
  { key: 'timeshiftRecorders', prefix: 'TIMESHIFT_RECORDER', label: 'Recorders', subFlags: true, limitField: 'timeshiftRecordersLimit' },
  { key: 'ads', prefix: 'ADS', label: 'Ads', feature: 'ads' },
  { key: 'playlists', prefix: 'PLAYLIST', label: 'Playlists' },
  { key: 'multiviewers', prefix: 'MULTIVIEWER', label: 'Multiviewers' },
  { key: 'dvb', prefix: 'DVB', label: 'DVB' },
  { key: 'captureCards', prefix: 'CAPTURE_CARD', label: 'Capture cards' },
  { key: 'playbackOutputs', prefix: 'PLAYBACK_OUTPUT', label: 'Playback outputs' },
  { key: 'extension', prefix: 'EXTENSION', label: 'Extensions' },
  { key: 'firewall', prefix: 'FIREWALL', label: 'Firewall' },
  { key: 'user', prefix: 'USER', label: 'Users' },
  { key: 'tools', prefix: 'TOOLS', label: 'Tools' },
  { key: 'settings', prefix: 'SETTINGS', label: 'Settings' },
  { key: 'nodes', prefix: 'NODE', label: 'Nodes' },
  { key: 'mediaLibrary', prefix: 'MEDIA_LIBRARY', label: 'Media library' },
  { key: 'streampools', prefix: 'STREAM_POOL', label: 'Streampools' },
  { key: 'statistics', prefix: 'STATISTICS', label: 'Statistics', viewOnly: true },
  { key: 'diagnosticsCheck', prefix: 'DIAGNOSTICS_CHECK', label: 'Diagnostic check', viewOnly: true },
  { key: 'license', prefix: 'LICENSE', label: 'License' },
  { key: 'aiModel', prefix: 'AI_MODEL', label: 'AI models' },
  { key: 'alarms', prefix: 'ALARMS', label: 'Alarms' },
] as const satisfies readonly ResourceDefinition[];

export type ResourceKey = (typeof RESOURCES)[number]['key'];
export type Resource = (typeof RESOURCES)[number];

/** The View sub-flags of the job resources, with the suffix of the permission each grants. */
export const VIEW_SUB_FLAGS = [
  { key: 'viewOnOff', suffix: 'VIEW_ON_OFF', label: 'On/Off' },
  { key: 'viewRestart', suffix: 'VIEW_RESTART', label: 'Restart' },
  { key: 'viewEdit', suffix: 'VIEW_EDIT', label: 'Edit' },
  { key: 'viewLog', suffix: 'VIEW_LOG', label: 'Log' },
  { key: 'viewDelete', suffix: 'VIEW_DELETE', label: 'Delete' },
] as const;

export type ViewSubFlag = (typeof VIEW_SUB_FLAGS)[number]['key'];

export type PermissionLevel = 'VIEW' | 'EDIT';

export interface ResourcePermission {
  /** Spelt as the spec does: `${prefix}_VIEW` or `${prefix}_EDIT`. */
  level: string;
  hide: boolean;
  viewOnOff?: boolean;
  viewRestart?: boolean;
  viewEdit?: boolean;
  viewLog?: boolean;
  viewDelete?: boolean;
}

export type UserPermissionMap = Partial<Record<ResourceKey, ResourcePermission>>;

function namesOf(resource: ResourceDefinition): string[] {
  const names = [`${resource.prefix}_VIEW`];
  if (!resource.viewOnly) names.push(`${resource.prefix}_EDIT`);
  if (resource.subFlags) for (const flag of VIEW_SUB_FLAGS) names.push(`${resource.prefix}_${flag.suffix}`);
  return names;
}

/** Every permission name the product knows, in catalogue order. */
export const ALL_PERMISSIONS: readonly string[] = RESOURCES.flatMap((r) => namesOf(r));

export const ADMIN_ROLE = 'ADMIN';

export function levelOf(resource: ResourceDefinition, permission: ResourcePermission | undefined): PermissionLevel | null {
  if (!permission || permission.hide) return null;
  if (permission.level === `${resource.prefix}_EDIT` && !resource.viewOnly) return 'EDIT';
  if (permission.level === `${resource.prefix}_VIEW`) return 'VIEW';
  return null;
}

/**
 * The permission names a user holds. ADMIN holds every one; an Edit level holds the View level and
 * every View sub-flag ("EDIT allows everything"); a View level holds only the sub-flags ticked.
 */
export function grantedPermissions(role: string, permissions: UserPermissionMap): Set<string> {
  if (role === ADMIN_ROLE) return new Set(ALL_PERMISSIONS);
  const granted = new Set<string>();
  for (const resource of RESOURCES as readonly ResourceDefinition[]) {
    const permission = permissions[resource.key as ResourceKey];
    const level = levelOf(resource, permission);
    if (!level) continue;
    granted.add(`${resource.prefix}_VIEW`);
    if (level === 'EDIT') {
      granted.add(`${resource.prefix}_EDIT`);
      if (resource.subFlags) for (const flag of VIEW_SUB_FLAGS) granted.add(`${resource.prefix}_${flag.suffix}`);
    } else if (resource.subFlags) {
      for (const flag of VIEW_SUB_FLAGS) if (permission?.[flag.key]) granted.add(`${resource.prefix}_${flag.suffix}`);
    }
  }
  return granted;
}

/** Does a holder of `granted` satisfy a declaration that asks for any one of `anyOf`? */
export function holdsAny(granted: ReadonlySet<string>, anyOf: readonly string[]): boolean {
  return anyOf.some((name) => granted.has(name));
}

/** A permission map with every resource hidden: what a new user starts with. */
export function hiddenPermissions(): UserPermissionMap {
  const map: UserPermissionMap = {};
  for (const resource of RESOURCES as readonly ResourceDefinition[]) {
    map[resource.key as ResourceKey] = { level: `${resource.prefix}_VIEW`, hide: true };
  }
  return map;
}

/** The prefix of a job kind's permission names. */
export const JOB_KIND_PREFIX = { relay: 'RELAY', encoding: 'ENCODING' } as const;

/**
 * What each action on a job needs (spec 01 §6): EDIT allows everything; VIEW_EDIT adds, edits,
 * starts, stops and comments; VIEW_RESTART restarts; VIEW_DELETE deletes; VIEW_ON_OFF switches;
 * VIEW_LOG reads logs. Templates: EDIT adds them, VIEW_EDIT and VIEW_DELETE edit and delete them.
 */
export function jobPermissions(kind: keyof typeof JOB_KIND_PREFIX) {
  const p = JOB_KIND_PREFIX[kind];
  return {
    view: { anyOf: [`${p}_VIEW`, `${p}_EDIT`] },
    edit: { anyOf: [`${p}_EDIT`, `${p}_VIEW_EDIT`] },
    onOff: { anyOf: [`${p}_EDIT`, `${p}_VIEW_EDIT`, `${p}_VIEW_ON_OFF`] },
    restart: { anyOf: [`${p}_EDIT`, `${p}_VIEW_RESTART`] },
    delete: { anyOf: [`${p}_EDIT`, `${p}_VIEW_DELETE`] },
    log: { anyOf: [`${p}_EDIT`, `${p}_VIEW_LOG`] },
    comment: { anyOf: [`${p}_EDIT`, `${p}_VIEW_EDIT`] },
    /** Adding outputs and templates needs the full EDIT. */
    fullEdit: { anyOf: [`${p}_EDIT`] },
    templateEdit: { anyOf: [`${p}_EDIT`, `${p}_VIEW_EDIT`] },
    templateDelete: { anyOf: [`${p}_EDIT`, `${p}_VIEW_DELETE`] },
  } as const;
}
