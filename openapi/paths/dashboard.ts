import { defineOperation } from '../operation.ts';
import { ErrorBody } from '../schemas/common.ts';
import { DashboardQuery, DashboardStatus } from '../schemas/dashboard.ts';

export const dashboardOperations = {
  getDashboard: defineOperation({
    operationId: 'getDashboard',
    method: 'get',
    path: '/api/dashboard',
    tag: 'dashboard',
    summary: 'The readings of a node, once: CPU, load, memory, disk, bandwidth, GPUs, tasks and versions, and the nodes table',
    description: 'The node\'s latest live sample, or the next one it publishes within 6 s; a node that publishes none (offline) answers with `live` false and its stored figures.',
    permission: 'authenticated',
    query: DashboardQuery,
    responses: { 200: { description: 'The readings.', schema: DashboardStatus }, 404: { description: 'No node with that id.', schema: ErrorBody } },
  }),
  streamDashboard: defineOperation({
    operationId: 'streamDashboard',
    method: 'get',
    path: '/api/dashboard/stream',
    tag: 'dashboard',
    summary: 'The readings of a node, live, as Server-Sent Events',
    description:
      'Each sample of the node is `event: status` whose `data` is a DashboardStatus, every 2 s, with the nodes table filled from the latest sample of every node. Every node samples itself and publishes its samples while an API process watches it, so any API process serves any node: the node this server runs on, or another one (an agent). One sampler per node serves every open stream: it starts with the first watcher and stops when the last is gone. While the node publishes nothing (offline) a status with `live` false and its stored figures comes every 4 s. A comment every 25 s keeps proxies from closing a quiet stream.',
    permission: 'authenticated',
    query: DashboardQuery,
    responses: { 200: { description: 'An event stream; each event\'s data is a DashboardStatus.', contentType: 'text/event-stream', schema: DashboardStatus }, 404: { description: 'No node with that id.', schema: ErrorBody } },
  }),
};
