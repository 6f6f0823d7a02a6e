import type { DashboardStatus } from '../../data/dashboard/queries.ts';
import { formatBitrate, formatPercent } from './format.ts';

type NodeRow = DashboardStatus['nodes'][number];

/**
 * The CPU/GPU nodes table (spec 03 Dashboard), shown when more than one node exists. Every row has
 * the live figures its node published (the dashboard stream carries them for every node); clicking
 * a row selects that node.
 */
export function NodesTable({ nodes, selectedId, onSelect }: { nodes: NodeRow[]; selectedId: number | null; onSelect: (id: number) => void }) {
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
            {nodes.map((node) => (
              <tr key={node.nodeId} className={node.nodeId === selectedId ? 'is-selected' : undefined} onClick={() => onSelect(node.nodeId)} style={{ cursor: 'pointer' }} aria-selected={node.nodeId === selectedId}>
                <td>
                  {node.nodeName}
                  {node.nodeType === 'LOCAL' && <span className="badge"> this server</span>}
                  {node.leader && <span className="badge"> leader</span>}
                </td>
                <td>{node.nodeAddress}</td>
                <td>
                  <span className={node.status === 'ONLINE' ? 'pill pill-on' : 'pill pill-off'}>{node.status === 'ONLINE' ? 'Online' : 'Offline'}</span>
                </td>
                <td>{node.live ? formatPercent(node.cpu) : '--'}</td>
                <td>{node.live && node.gpu !== null ? formatPercent(node.gpu) : '--'}</td>
                <td>{node.live ? formatPercent(node.memory) : '--'}</td>
                <td>{`${node.activeTasks}/${node.allTasks}`}</td>
                <td>{node.live ? `${formatBitrate(node.bandwidthIn)} / ${formatBitrate(node.bandwidthOut)}` : '--'}</td>
                <td>{node.rixjobVersion}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
