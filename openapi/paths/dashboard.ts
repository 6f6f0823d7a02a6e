import { defineOperation } from '../operation.ts';
import { ErrorBody } from '../schemas/common.ts';
import { DashboardQuery, DashboardStatus } from '../schemas/dashboard.ts';

export const dashboardOperations = {
  getDashboard: defineOperation({
    operationId: 'getDashboard',
    method: 'get',
    path: '/api/dashboard',
    tag: 'dashboard',
    summary: 'The readings of a node, once: CPU, load, memory, disk, bandwidth, GPUs, tasks and versions',
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
      'Each sample is `event: status` whose `data` is a DashboardStatus, every 2 s. One sampler serves every open stream: it starts with the first and stops when the last closes. A comment every 25 s keeps proxies from closing a quiet stream.',
    permission: 'authenticated',
    query: DashboardQuery,
    responses: { 200: { description: 'An event stream; each event\'s data is a DashboardStatus.', contentType: 'text/event-stream', schema: DashboardStatus }, 404: { description: 'No node with that id.', schema: ErrorBody } },
  }),
};
