import { useId } from 'react';
import { Link, matchPath, useLocation } from 'react-router-dom';
import { Icon } from '../components/icons.tsx';
import { Switch } from '../components/Switch.tsx';
import { useCurrentUser } from '../data/auth/queries.ts';
import { useNodeSummaries, useSystemInfo, type NodeSummary } from '../data/system/queries.ts';
import { useSelectedNode } from './node-selection.ts';
import { useCurrentPageTitle } from './breadcrumbs.tsx';
import { AREAS } from './routes.tsx';
import { useTheme } from './theme.ts';

interface Crumb {
  label: string;
  to?: string;
}

function useCrumbs(): Crumb[] {
  const { pathname } = useLocation();
  const pageTitle = useCurrentPageTitle();
  // The most specific area first: /my/users before /my.
  const area = [...AREAS].sort((a, b) => b.path.length - a.path.length).find((a) => pathname === a.path || pathname.startsWith(`${a.path}/`));
  if (!area) return [];
  if (pathname === area.path) return [{ label: pageTitle ?? area.label }];
  const screen = area.screens?.find((s) => matchPath(`${area.path}/${s.path}`, pathname));
  return [{ label: area.label, to: area.path }, { label: pageTitle ?? screen?.label ?? '' }];
}

/** The node selector: only on the dashboard and only with more than one node. */
function NodeSelector({ nodes }: { nodes: NodeSummary[] }) {
  const id = useId();
  const [selected, select] = useSelectedNode();
  return (
    <div className="node-selector">
      <label htmlFor={id}>
        <Icon name="server" />
        <span className="visually-hidden">Node</span>
      </label>
      <select id={id} value={selected ?? nodes[0]?.id ?? ''} onChange={(event) => select(Number(event.target.value))}>
        {nodes.map((node) => (
          <option key={node.id} value={node.id}>
            {node.name} ({node.ip}){node.online ? '' : ' – offline'}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Header() {
  const user = useCurrentUser();
  const { data: info } = useSystemInfo();
  const { pathname } = useLocation();
  const [theme, setTheme] = useTheme();
  const crumbs = useCrumbs();
  const onDashboard = pathname === '/my' || pathname === '/my/';
  const { data: nodes } = useNodeSummaries(onDashboard && (info?.nodeCount ?? 0) > 1);

  return (
    <header className="header">
      <nav aria-label="Breadcrumb" className="breadcrumbs">
        <ol>
          {crumbs.map((crumb, i) => (
            <li key={i}>
              {crumb.to ? (
                <Link to={crumb.to}>{crumb.label}</Link>
              ) : (
                <span aria-current="page">{crumb.label}</span>
              )}
            </li>
          ))}
        </ol>
      </nav>
      <div className="header-tools">
        {onDashboard && nodes && nodes.items.length > 1 && <NodeSelector nodes={nodes.items} />}
        {info?.devMode && (
          <span className="dev-marker" title="Dev mode is on">
            DEV
          </span>
        )}
        <div className="theme-switch">
          <Icon name={theme === 'dark' ? 'moon' : 'sun'} />
          <Switch checked={theme === 'dark'} onChange={(dark) => setTheme(dark ? 'dark' : 'light')} label="Dark theme" />
        </div>
        <span className="header-user" title={`Signed in as ${user.username} (${user.role.name})`}>
          <Icon name="user" />
          <span data-testid="current-username">{user.username}</span>
        </span>
        <Link to="/logout" className="header-logout">
          <Icon name="logout" />
          <span>Logout</span>
        </Link>
      </div>
    </header>
  );
}
