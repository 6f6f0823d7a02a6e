import { z } from 'zod';

export const SystemInfo = z
  .object({
    product: z.literal('Mediaplane'),
    backendVersion: z.string(),
    runtime: z.string().describe('The runtime, e.g. Node.js v20.20.2.'),
    devMode: z.boolean().describe('Dev mode shows the DEV marker and the Dev dropdowns.'),
    features: z.record(z.string(), z.boolean()).describe('System features that gate areas, e.g. ads.'),
    nodeCount: z.number().int().describe('Nodes in the cluster; the header node selector appears above one.'),
  })
  .meta({ id: 'SystemInfo', description: 'What the console needs to draw its shell.' });

export const NodeSummary = z
  .object({
    id: z.number().int(),
    name: z.string(),
    nodeId: z.string().describe('The machine identity of the node.'),
    ip: z.string(),
    online: z.boolean().describe('Its heartbeat is recent.'),
    version: z.string(),
  })
  .meta({ id: 'NodeSummary', description: 'A node of the cluster, as the header node selector lists it.' });

export const NodeSummaryList = z.object({ items: z.array(NodeSummary) }).meta({ id: 'NodeSummaryList', description: 'The nodes of the cluster, by name.' });

export const LiveEvent = z
  .object({
    topic: z.string().describe('The area that changed: users, relays, encodings ...; also the SSE event name.'),
    type: z.string().describe('What happened: created, updated, deleted, status ...'),
    id: z.union([z.number(), z.string()]).optional().describe('The item that changed.'),
    data: z.unknown().optional().describe('What a screen needs to update without a reload (e.g. a job status).'),
  })
  .meta({ id: 'LiveEvent', description: 'One live change, the JSON `data` of a Server-Sent Event on /api/events.' });
