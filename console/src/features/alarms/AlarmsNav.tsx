import { NavLink } from 'react-router-dom';

const TABS = [
  { to: '/my/alarms', label: 'Alarms' },
  { to: '/my/alarms/system', label: 'System Alarms' },
  { to: '/my/alarms/history', label: 'Sent Alarms' },
  { to: '/my/alarms/settings', label: 'General settings' },
];

/** The four alarm screens, one click apart. */
export function AlarmsNav() {
  return (
    <nav className="alarms-nav" aria-label="Alarms">
      {TABS.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end className={({ isActive }) => `alarms-nav-link${isActive ? ' is-active' : ''}`}>
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
