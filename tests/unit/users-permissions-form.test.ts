import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../openapi/permissions.ts';
import { normalisePermissions } from '../../api/services/users.service.ts';

// Spec 03 §4: "Choosing Edit clears the View sub-flags." The API stores what the form saves, normalised.
describe('normalisePermissions', () => {
  it('clears the View sub-flags at the Edit level', () => {
    const saved = normalisePermissions({ relay: { level: 'RELAY_EDIT', hide: false, viewLog: true, viewOnOff: true } });
    expect(saved.relay).toEqual({ level: 'RELAY_EDIT', hide: false });
  });

  it('keeps every sub-flag at the View level, unticked ones as false', () => {
    const saved = normalisePermissions({ encoding: { level: 'ENCODING_VIEW', hide: false, viewLog: true } });
    expect(saved.encoding).toEqual({ level: 'ENCODING_VIEW', hide: false, viewOnOff: false, viewRestart: false, viewEdit: false, viewLog: true, viewDelete: false });
  });

  it('hides every resource the input leaves out', () => {
    const saved = normalisePermissions({ user: { level: 'USER_VIEW', hide: false } });
    expect(Object.keys(saved).sort()).toEqual(RESOURCES.map((r) => r.key).sort());
    expect(saved.user).toEqual({ level: 'USER_VIEW', hide: false });
    expect(saved.firewall).toEqual({ level: 'FIREWALL_VIEW', hide: true });
  });

  it('turns an Edit level on a view-only resource into its View level', () => {
    expect(normalisePermissions({ statistics: { level: 'STATISTICS_EDIT', hide: false } }).statistics).toEqual({ level: 'STATISTICS_VIEW', hide: false });
  });

  it('gives every resource hidden for no input', () => {
    for (const permission of Object.values(normalisePermissions(undefined))) expect(permission?.hide).toBe(true);
  });
});
