import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, RESOURCES, VIEW_SUB_FLAGS, grantedPermissions, hiddenPermissions, holdsAny, type UserPermissionMap } from '../../openapi/permissions.ts';

const sorted = (set: Set<string>) => [...set].sort();

describe('grantedPermissions', () => {
  it('gives ADMIN every permission of the catalogue, whatever its map says', () => {
    const granted = grantedPermissions('ADMIN', hiddenPermissions());
    expect(sorted(granted)).toEqual([...ALL_PERMISSIONS].sort());
    expect(granted.has('USER_EDIT')).toBe(true);
    expect(granted.has('RELAY_VIEW_DELETE')).toBe(true);
    expect(granted.has('DIAGNOSTICS_CHECK_VIEW')).toBe(true);
  });

  it('holds the View level and every View sub-flag at the Edit level', () => {
    const granted = grantedPermissions('USER', { relay: { level: 'RELAY_EDIT', hide: false } });
    expect(sorted(granted)).toEqual(
      ['RELAY_VIEW', 'RELAY_EDIT', 'RELAY_VIEW_ON_OFF', 'RELAY_VIEW_RESTART', 'RELAY_VIEW_EDIT', 'RELAY_VIEW_LOG', 'RELAY_VIEW_DELETE'].sort(),
    );
  });

  it('holds only the ticked sub-flags at the View level', () => {
    const granted = grantedPermissions('USER', { encoding: { level: 'ENCODING_VIEW', hide: false, viewLog: true, viewRestart: true, viewDelete: false } });
    expect(sorted(granted)).toEqual(['ENCODING_VIEW', 'ENCODING_VIEW_LOG', 'ENCODING_VIEW_RESTART']);
  });

  it('gives nothing on a hidden resource, even at the Edit level with sub-flags ticked', () => {
    const permissions: UserPermissionMap = {
      relay: { level: 'RELAY_EDIT', hide: true },
      encoding: { level: 'ENCODING_VIEW', hide: true, viewLog: true, viewOnOff: true },
      user: { level: 'USER_VIEW', hide: true },
    };
    expect(grantedPermissions('USER', permissions).size).toBe(0);
    expect(grantedPermissions('USER', hiddenPermissions()).size).toBe(0);
    expect(grantedPermissions('USER', {}).size).toBe(0);
  });

  it('gives only the View permission on a view-only resource (STATISTICS_VIEW, never STATISTICS_EDIT)', () => {
    expect(sorted(grantedPermissions('USER', { statistics: { level: 'STATISTICS_VIEW', hide: false } }))).toEqual(['STATISTICS_VIEW']);
    expect(sorted(grantedPermissions('USER', { diagnosticsCheck: { level: 'DIAGNOSTICS_CHECK_VIEW', hide: false } }))).toEqual(['DIAGNOSTICS_CHECK_VIEW']);
    // An Edit level on a view-only resource is not a level it has: nothing is granted.
    expect(grantedPermissions('USER', { statistics: { level: 'STATISTICS_EDIT', hide: false } }).size).toBe(0);
    expect(ALL_PERMISSIONS).toContain('STATISTICS_VIEW');
    expect(ALL_PERMISSIONS).not.toContain('STATISTICS_EDIT');
    expect(ALL_PERMISSIONS).not.toContain('DIAGNOSTICS_CHECK_EDIT');
  });

  it('gives a View/Edit pair to a resource without sub-flags and no sub-flag names', () => {
    expect(sorted(grantedPermissions('USER', { user: { level: 'USER_EDIT', hide: false } }))).toEqual(['USER_EDIT', 'USER_VIEW']);
    expect(sorted(grantedPermissions('USER', { user: { level: 'USER_VIEW', hide: false, viewLog: true } }))).toEqual(['USER_VIEW']);
  });

  it('adds up the grants of several resources', () => {
    const granted = grantedPermissions('USER', {
      user: { level: 'USER_VIEW', hide: false },
      firewall: { level: 'FIREWALL_EDIT', hide: false },
      relay: { level: 'RELAY_VIEW', hide: false, viewOnOff: true },
    });
    expect(sorted(granted)).toEqual(['FIREWALL_EDIT', 'FIREWALL_VIEW', 'RELAY_VIEW', 'RELAY_VIEW_ON_OFF', 'USER_VIEW']);
  });
});

describe('the permission catalogue', () => {
  it('names a View permission for every resource and the five sub-flags for the four job resources', () => {
    for (const resource of RESOURCES) expect(ALL_PERMISSIONS).toContain(`${resource.prefix}_VIEW`);
    const jobResources = RESOURCES.filter((r) => 'subFlags' in r && r.subFlags).map((r) => r.key);
    expect(jobResources).toEqual(['relay', 'encoding', 'timeshiftPlayers', 'timeshiftRecorders']);
    for (const flag of VIEW_SUB_FLAGS) expect(ALL_PERMISSIONS).toContain(`TIMESHIFT_RECORDER_${flag.suffix}`);
    expect(new Set(ALL_PERMISSIONS).size).toBe(ALL_PERMISSIONS.length);
  });
});

describe('holdsAny', () => {
  it('is satisfied by any one of the names asked for', () => {
    const granted = new Set(['USER_VIEW']);
    expect(holdsAny(granted, ['USER_VIEW', 'USER_EDIT'])).toBe(true);
    expect(holdsAny(granted, ['USER_EDIT'])).toBe(false);
    expect(holdsAny(granted, [])).toBe(false);
  });
});

describe('hiddenPermissions', () => {
  it('hides every resource of the catalogue', () => {
    const map = hiddenPermissions();
    expect(Object.keys(map).sort()).toEqual(RESOURCES.map((r) => r.key).sort());
    for (const permission of Object.values(map)) expect(permission?.hide).toBe(true);
  });
});
