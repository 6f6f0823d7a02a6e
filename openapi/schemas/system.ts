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
