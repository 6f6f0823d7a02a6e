import type { DashboardStatus } from '../../data/dashboard/queries.ts';
import type { NodeSummary } from '../../data/system/queries.ts';
import { formatBitrate, formatPercent } from './format.ts';

/**
 * The CPU/GPU nodes table (spec 03 Dashboard), shown when more than one node exists. The figures of
 * the selected node come from its live status; clicking a row selects that node.
 */
export function NodesTable({ nodes, selectedId, status, onSelect }: { nodes: NodeSummary[]; selectedId: number | null; status: DashboardStatus | undefined; onSelect: (id: number) => void }) {
  return (
    <section className="card nodes-card">
      <div className="card-header">
        <h2 className="card-title">CPU/GPU nodes</h2>
      </div>
      <div className="table-wrap">
        <table className="table nodes-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Address</th>
              <th>Status</th>
              <th>CPU</th>
              <th>GPU</th>
              <th>Memory</th>
              <th>Tasks</th>
              <th>Bandwidth</th>
              <th>Version</th>
            </tr>
          </thead>
          <tbody>
            {nodes.map((node) => {
              const live = node.id === selectedId && status?.live ? status : undefined;
              const gpu = live && live.gpus.length ? formatPercent(Math.max(...live.gpus.map((g) => g.streamingMultiprocessorUsagePercent ?? 0))) : '--';
              return (
                <tr key={node.id} className={node.id === selectedId ? 'is-selected' : undefined} onClick={() => onSelect(node.id)} style={{ cursor: 'pointer' }} aria-selected={node.id === selectedId}>
                  <td>{node.name}</td>
                  <td>{node.ip}</td>
                  <td>
                    <span className={node.online ? 'pill pill-on' : 'pill pill-off'}>{node.online ? 'Online' : 'Offline'}</span>
                  </td>
                  <td>{live ? formatPercent(live.cpu) : '--'}</td>
                  <td>{gpu}</td>
                  <td>{live ? formatPercent(live.memoryPercentage) : '--'}</td>
                  <td>{node.id === selectedId && status ? `${status.activeTasks}/${status.allTasks}` : '--'}</td>
                  <td>{live ? `${formatBitrate(live.bandwidthIn)} / ${formatBitrate(live.bandwidthOut)}` : '--'}</td>
                  <td>{node.version}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
