import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { LiveEvent, NodeSummaryList, SystemInfo } from '../schemas/system.ts';

export const systemOperations = {
  getSystemInfo: defineOperation({
    operationId: 'getSystemInfo',
    method: 'get',
    path: '/api/system/info',
    tag: 'system',
    summary: 'Versions, dev mode and features for the console shell',
    permission: 'authenticated',
    responses: { 200: { description: 'The information.', schema: SystemInfo } },
  }),
  listNodeSummaries: defineOperation({
    operationId: 'listNodeSummaries',
    method: 'get',
    path: '/api/system/nodes',
    tag: 'system',
    summary: 'The nodes of the cluster, for the dashboard\'s node selector',
    permission: 'authenticated',
    responses: { 200: { description: 'The nodes.', schema: NodeSummaryList } },
  }),
  getHealth: defineOperation({
    operationId: 'getHealth',
    method: 'get',
    path: '/api/health',
    tag: 'system',
    summary: 'Liveness: answers when the API and its database are up',
    permission: 'public',
    responses: { 200: { description: 'Up.', schema: z.object({ status: z.literal('ok'), database: z.literal('ok') }) } },
  }),
  getOpenApiDocument: defineOperation({
    operationId: 'getOpenApiDocument',
    method: 'get',
    path: '/api/openapi.json',
    tag: 'system',
    summary: 'This OpenAPI document',
    permission: 'public',
    responses: { 200: { description: 'The OpenAPI 3.1 document.', schema: z.record(z.string(), z.unknown()) } },
  }),
  streamEvents: defineOperation({
    operationId: 'streamEvents',
    method: 'get',
    path: '/api/events',
    tag: 'system',
    summary: 'Live changes as Server-Sent Events',
    description: 'Each event is `event: <topic>` with a JSON `data` line; a user receives only the topics its permissions let it see. A comment line every 25 s keeps proxies from closing the stream.',
    permission: 'authenticated',
    query: z.object({ topics: z.string().optional().describe('Comma-separated topics to receive, e.g. users. All permitted topics when absent.') }),
    responses: { 200: { description: 'An event stream; each event\'s data is a LiveEvent.', contentType: 'text/event-stream', schema: LiveEvent } },
  }),
};
