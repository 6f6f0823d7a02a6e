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

export const DashboardStatus = z
  .object({
    nodeId: z.number().int().nullable().describe('The node read (nodes.id); null before the node registered.'),
    nodeName: z.string().nullable(),
    live: z.boolean().describe('false: the node is not the one this server runs on, so only its stored figures (tasks, version) are known.'),
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
    rixjobUser: z.string().describe('The operating-system user the server runs as.'),
    rixjobVersion: z.string().describe('The backend version.'),
    licenseStatus: z.string().describe('This product needs no license key: always Active.'),
  })
  .meta({ id: 'DashboardStatus', description: 'The readings of one node (spec 03 §3 Dashboard status).' });

export const DashboardQuery = z.object({
  node: z.coerce.number().int().positive().optional().describe('The node to read (nodes.id); absent: the node this server runs on.'),
});
