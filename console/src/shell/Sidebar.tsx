import { Link, useLocation } from 'react-router-dom';
import { Icon } from '../components/icons.tsx';
import { useGranted } from '../data/auth/queries.ts';
import { useSystemInfo } from '../data/system/queries.ts';
import { AREAS, SIDEBAR_GROUPS, mayOpen, type AreaRoute } from './routes.tsx';

/** The area the page belongs to: the longest area path it is under (/my/relays/templates/edit/3 is a template's). */
function currentArea(pathname: string): string | undefined {
  const under = AREAS.filter((area) => (area.path === '/my' ? pathname === '/my' || pathname === '/my/' : pathname === area.path || pathname.startsWith(`${area.path}/`)));
  return under.sort((a, b) => b.path.length - a.path.length)[0]?.path;
}

function Entry({ area, active }: { area: AreaRoute; active: boolean }) {
  return (
    <li>
      <Link to={area.path} aria-current={active ? 'page' : undefined} className={`nav-link${active ? ' is-active' : ''}`}>
        <Icon name={area.icon} />
        <span>{area.label}</span>
      </Link>
    </li>
  );
}

/** The sidebar: the areas the user may open (from the route registry), and the versions. */
export function Sidebar() {
  const granted = useGranted();
  const { data: info } = useSystemInfo();
  const features = info?.features ?? {};
  const visible = AREAS.filter((area) => mayOpen(area, granted, features));
  const current = currentArea(useLocation().pathname);

  // Top-level entries in registry order; a group sits where its first entry is.
  const items: ({ kind: 'area'; area: AreaRoute } | { kind: 'group'; name: string; areas: AreaRoute[] })[] = [];
  for (const area of visible) {
    if (!area.group) items.push({ kind: 'area', area });
    else {
      const group = items.find((i) => i.kind === 'group' && i.name === area.group);
      if (group && group.kind === 'group') group.areas.push(area);
      else items.push({ kind: 'group', name: area.group, areas: [area] });
    }
  }

  return (
    <aside className="sidebar">
      <div className="brand">
        <svg viewBox="0 0 32 32" width="26" height="26" aria-hidden="true">
          <rect width="32" height="32" rx="6" fill="var(--primary)" />
          <path d="M7 22V10l5 7 4-7 4 7 5-7v12" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="brand-name">Mediaplane</span>
      </div>
      <nav aria-label="Main">
        <ul className="nav-list">
          {items.map((item) =>
            item.kind === 'area' ? (
              <Entry key={item.area.path} area={item.area} active={item.area.path === current} />
            ) : (
              <li key={item.name} className="nav-group">
                <div className="nav-group-label">
                  <Icon name={SIDEBAR_GROUPS[item.name]?.icon ?? 'menu'} />
                  <span>{item.name}</span>
                </div>
                <ul className="nav-list nav-sublist">
                  {item.areas.map((area) => (
                    <Entry key={area.path} area={area} active={area.path === current} />
                  ))}
                </ul>
              </li>
            ),
          )}
        </ul>
      </nav>
      <dl className="versions">
        <div>
          <dt>Backend</dt>
          <dd data-testid="backend-version">{info?.backendVersion ?? '…'}</dd>
        </div>
        <div>
          <dt>Frontend</dt>
          <dd data-testid="frontend-version">{__FRONTEND_VERSION__}</dd>
        </div>
      </dl>
    </aside>
  );
}
