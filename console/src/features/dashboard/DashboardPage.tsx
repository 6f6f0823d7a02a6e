import { Card, PageHeader } from '../../components/Page.tsx';
import { Icon } from '../../components/icons.tsx';
import { useCurrentUser } from '../../data/auth/queries.ts';
import { useSystemInfo } from '../../data/system/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';

/**
 * /my: a welcome for now. The dashboard of spec 03 (CPU, memory, disks, GPUs, bandwidth, nodes)
 * comes with the operations release; until then this page shows only what is true today.
 */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const user = useCurrentUser();
  const { data: info } = useSystemInfo();
  return (
    <div className="page">
      <PageHeader title={`Welcome, ${user.username}`} subtitle="Mediaplane operator console" />
      <div className="dashboard-grid">
        <Card title="Signed in">
          <dl className="facts">
            <div>
              <dt>User</dt>
              <dd>{user.username}</dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>{user.role.name}</dd>
            </div>
            <div>
              <dt>E-mail</dt>
              <dd>{user.email || '--'}</dd>
            </div>
          </dl>
        </Card>
        <Card title="System">
          <dl className="facts">
            <div>
              <dt>Backend version</dt>
              <dd>{info?.backendVersion ?? '…'}</dd>
            </div>
            <div>
              <dt>Frontend version</dt>
              <dd>{__FRONTEND_VERSION__}</dd>
            </div>
            <div>
              <dt>Runtime</dt>
              <dd>{info?.runtime ?? '…'}</dd>
            </div>
            <div>
              <dt>Nodes</dt>
              <dd>{info?.nodeCount ?? '…'}</dd>
            </div>
          </dl>
        </Card>
      </div>
      <div className="notice">
        <Icon name="info" />
        <span>The dashboard arrives with the operations release: CPU, memory, disk, GPU and bandwidth figures of every node will show here.</span>
      </div>
    </div>
  );
}
