import { z } from 'zod';

const percent = (what: string) => z.number().nullable().describe(`${what}, percent; null when the tool does not say.`);

export const GpuDevice = z
  .object({
    index: z.number().int(),
    name: z.string(),
    temperature: z.number().nullable().describe('Degrees Celsius.'),
    streamingMultiprocessorUsagePercent: percent('Streaming multiprocessors busy (SM)'),
    encoderUsed: percent('Encoder busy (ENC)'),
    decoderUsed: percent('Decoder busy (DEC)'),
    memoryUsed: percent('Memory controller busy (MEM)'),
    memoryUsedMiB: z.number().nullable(),
    memoryTotalMiB: z.number().nullable(),
    processes: z.array(z.object({ pid: z.number().int(), name: z.string(), usedMemoryMiB: z.number().nullable() })).describe('The processes using the card.'),
  })
  .meta({ id: 'GpuDevice', description: 'An NVIDIA card, as nvidia-smi reads it.' });

export const QuickSyncDevice = z
  .object({ renderUsed: percent('Render/3D engine busy'), video1Used: percent('First video engine busy'), video2Used: percent('Second video engine busy') })
  .meta({ id: 'QuickSyncDevice', description: 'An Intel Quick Sync device, as intel_gpu_top reads it.' });

export const DashboardNodeRow = z
  .object({
    nodeId: z.number().int().describe('nodes.id'),
    nodeName: z.string(),
    nodeType: z.enum(['LOCAL', 'REMOTE']).describe('LOCAL: the node this server runs on; REMOTE: another node of the cluster (an agent, or another server).'),
    leader: z.boolean().nullable().describe('The node leads the cluster (it places the auto jobs); null while its samples do not say.'),
    status: z.enum(['ONLINE', 'OFFLINE']).describe('OFFLINE: its heartbeat is stale (or the node is switched off).'),
    nodeAddress: z.string(),
    live: z.boolean().describe('The figures below are the node\'s live sample; false: it publishes none now (offline), so they are null.'),
    cpu: z.number().nullable().describe('CPU load, percent of all cores.'),
    gpu: z.number().nullable().describe('The busiest GPU\'s streaming multiprocessors, percent; null without an NVIDIA GPU.'),
    memory: z.number().nullable().describe('Memory used, percent.'),
    activeTasks: z.number().int().describe('Jobs on this node switched on.'),
    allTasks: z.number().int().describe('Jobs on this node, templates left out.'),
    bandwidthIn: z.number().nullable().describe('Bits per second received, loopback left out.'),
    bandwidthOut: z.number().nullable().describe('Bits per second sent, loopback left out.'),
    licenseStatus: z.string().describe('Always Active.'),
    rixjobVersion: z.string().describe('The backend version the node runs.'),
  })
  .meta({ id: 'DashboardNodeRow', description: 'A row of the CPU/GPU nodes table (spec 03 Dashboard): a node of the cluster with its live figures.' });

export const DashboardStatus = z
  .object({
    nodeId: z.number().int().nullable().describe('The node read (nodes.id); null before the node registered.'),
    nodeName: z.string().nullable(),
    live: z.boolean().describe('true: the readings are the node\'s own live sample (every node samples itself and publishes its samples to the API processes); false: the node publishes none now (offline), so only its stored figures (tasks, version) are known.'),
    at: z.string().describe('When the sample was taken (ISO 8601).'),
    cpu: z.number().nullable().describe('CPU load, percent of all cores.'),
    cpuCoreCount: z.number().int().nullable(),
    cpuAverageLoad: z.object({ minute1: z.number(), minute5: z.number(), minute15: z.number() }).nullable(),
    uptime: z.number().int().nullable().describe('Seconds since the machine booted.'),
    localTime: z.string().nullable().describe('The node\'s local time, yyyy-MM-dd HH:mm:ss ±hh:mm.'),
    timezone: z.string().nullable(),
    memoryTotal: z.number().nullable().describe('Bytes.'),
    memoryAvailable: z.number().nullable().describe('Bytes.'),
    memoryPercentage: z.number().nullable(),
    hddTotal: z.number().nullable().describe('Bytes of the data disk.'),
    hddFree: z.number().nullable().describe('Bytes.'),
    hddPercentage: z.number().nullable(),
    bandwidthIn: z.number().nullable().describe('Bits per second received, loopback left out.'),
    bandwidthOut: z.number().nullable().describe('Bits per second sent, loopback left out.'),
    activeTasks: z.number().int().describe('Jobs switched on (on).'),
    allTasks: z.number().int().describe('Jobs, templates left out (all).'),
    servicesUp: z.number().int().describe('Jobs switched on and running.'),
    servicesDown: z.number().int().describe('Jobs switched on and not running (starting, restarting, failed ...).'),
    gpus: z.array(GpuDevice),
    mfxDevice: QuickSyncDevice.nullable().describe('The Intel Quick Sync device; null when there is none.'),
    rixjobUser: z.string().describe('The operating-system user the node runs as ("unknown" while it publishes no sample).'),
    rixjobVersion: z.string().describe('The backend version.'),
    licenseStatus: z.string().describe('This product needs no license key: always Active.'),
    nodes: z.array(DashboardNodeRow).describe('Every node of the cluster with its live figures, by name: the CPU/GPU nodes table.'),
  })
  .meta({ id: 'DashboardStatus', description: 'The readings of one node (spec 03 §3 Dashboard status).' });

export const DashboardQuery = z.object({
  node: z.coerce.number().int().positive().optional().describe('The node to read (nodes.id); absent: the node this server runs on.'),
});
