import { Card, PageHeader } from '../../components/Page.tsx';
import { useDashboardStatus } from '../../data/dashboard/queries.ts';
import { useSystemInfo } from '../../data/system/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { useSelectedNode } from '../../shell/node-selection.ts';
import { formatBitrate, formatBytes, formatUptime } from './format.ts';
import { Gauge } from './Gauge.tsx';
import { GpuCards } from './GpuCards.tsx';
import { NodesTable } from './NodesTable.tsx';
import '../../styles/dashboard.css';

function Fact({ label, value }: { label: string; value: string | number }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * /my: the readings of the selected node (spec 03 Dashboard), live from GET /api/dashboard/stream:
 * CPU, load averages, uptime, local time, memory, disk, bandwidth, tasks, GPUs and versions.
 */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const [selected, select] = useSelectedNode();
  const { status, error } = useDashboardStatus(selected);
  const { data: info } = useSystemInfo();
  const s = status;
  const subtitle = s ? `${s.nodeName ?? 'This server'}${s.live ? '' : ' (no live readings: only stored figures)'}` : error ? 'Reconnecting ...' : 'Connecting ...';
  return (
    <div className="page dashboard">
      <PageHeader title="Dashboard" subtitle={subtitle} />
      <div className="dashboard-gauges">
        <Card className="gauge-card">
          <Gauge value={s?.cpu} label="CPU load" detail={s?.cpuCoreCount ? `${s.cpuCoreCount} cores` : undefined} />
        </Card>
        <Card className="gauge-card">
          <Gauge value={s?.memoryPercentage} label="Memory" detail={s && s.memoryTotal !== null && s.memoryAvailable !== null ? `${formatBytes(s.memoryTotal - s.memoryAvailable)} / ${formatBytes(s.memoryTotal)}` : undefined} />
        </Card>
        <Card className="gauge-card">
          <Gauge value={s?.hddPercentage} label="Disk" detail={s && s.hddTotal !== null && s.hddFree !== null ? `${formatBytes(s.hddTotal - s.hddFree)} / ${formatBytes(s.hddTotal)}` : undefined} />
        </Card>
        <Card title="Load average">
          <dl className="facts">
            <Fact label="1 min" value={s?.cpuAverageLoad?.minute1.toFixed(2) ?? '--'} />
            <Fact label="5 min" value={s?.cpuAverageLoad?.minute5.toFixed(2) ?? '--'} />
            <Fact label="15 min" value={s?.cpuAverageLoad?.minute15.toFixed(2) ?? '--'} />
          </dl>
        </Card>
        <Card title="Time">
          <dl className="facts">
            <Fact label="Uptime" value={formatUptime(s?.uptime)} />
            <Fact label="Local time" value={s?.localTime ?? '--'} />
            <Fact label="Time zone" value={s?.timezone ?? '--'} />
          </dl>
        </Card>
        <Card title="Bandwidth">
          <dl className="facts">
            <Fact label="In" value={formatBitrate(s?.bandwidthIn)} />
            <Fact label="Out" value={formatBitrate(s?.bandwidthOut)} />
          </dl>
        </Card>
        <Card title="Tasks">
          <dl className="facts">
            <Fact label="Jobs on/all" value={s ? `${s.activeTasks}/${s.allTasks}` : '--'} />
            <Fact label="Services up" value={s?.servicesUp ?? '--'} />
            <Fact label="Services down" value={s?.servicesDown ?? '--'} />
          </dl>
        </Card>
        <Card title="System">
          <dl className="facts">
            <Fact label="User" value={s?.rixjobUser ?? '--'} />
            <Fact label="Backend version" value={s?.rixjobVersion ?? info?.backendVersion ?? '--'} />
            <Fact label="Frontend version" value={__FRONTEND_VERSION__} />
            <Fact label="License status" value={s?.licenseStatus ?? '--'} />
          </dl>
        </Card>
      </div>
      {s && <GpuCards status={s} />}
      {s && s.nodes.length > 1 && <NodesTable nodes={s.nodes} selectedId={s.nodeId ?? selected ?? null} onSelect={(id) => select(id)} />}
    </div>
  );
}
