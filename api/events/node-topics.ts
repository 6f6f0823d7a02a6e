import type { HostReading } from '../../engine/system/host.ts';
import type { QuickSyncReading } from '../../engine/system/intel-gpu-top.ts';
import type { NvidiaGpu } from '../../engine/system/nvidia-smi.ts';
import type { ToolRunEnd, ToolRunEvent } from '../../engine/tools/types.ts';
import type { KeyframeRequestValue, MediaCheckRequestValue, MtrRequestValue, PingRequestValue } from '../../openapi/schemas/tools.ts';
import type { LiveEvent } from './event-bus.ts';

/**
 * What the API processes and the nodes of the cluster say to each other on the event bus. These
 * topics are internal: they are not in TOPIC_PERMISSIONS, so /api/events never forwards them to a
 * browser (a keyframe request carries its token).
 *
 * Samples (`node-samples`): an API process that shows the readings of a node (a dashboard, the
 * nodes table, the system alarm monitor) sends `watch` naming the nodes, again every
 * WATCH_RENEW_MS while it still shows them; a node samples itself while a watch of it is younger
 * than WATCH_LEASE_MS and publishes each sample. Nobody watching: nothing sampled, nothing sent.
 *
 * Tool runs (`node-tools`): a request/response exchange. The API process sends `run` to one node;
 * the node answers `accepted` (or `refused`), then streams the run's `event`s in order (numbered
 * by `seq`) and its `end`. The API process sends `abort` when its client stops, and `renew` for
 * its runs every TOOL_RENEW_MS: a node ends a run whose requester went silent for TOOL_LEASE_MS
 * (the API process died). The node sends `alive` for its runs likewise, so a requester whose node
 * died ends the stream instead of waiting forever.
 */

export const NODE_SAMPLES_TOPIC = 'node-samples';
export const NODE_TOOLS_TOPIC = 'node-tools';

export const WATCH_LEASE_MS = 10_000;
export const WATCH_RENEW_MS = 3_000;

export const TOOL_ACCEPT_TIMEOUT_MS = 5_000;
export const TOOL_RENEW_MS = 4_000;
export const TOOL_LEASE_MS = 15_000;

/** A node's sample as it travels: the host, its GPUs, and who took it. */
export interface NodeSampleMessage {
  nodeId: number;
  nodeName: string;
  /** ISO 8601. */
  at: string;
  host: HostReading;
  gpus: NvidiaGpu[];
  quickSync: QuickSyncReading | null;
  /** This node holds the leader lock (it places the auto jobs). */
  leader: boolean;
  /** The operating-system user the node runs as, and its version. */
  user: string;
  version: string;
}

export type NodeSamplesMessage =
  | { topic: typeof NODE_SAMPLES_TOPIC; type: 'watch'; data: { nodeIds: number[]; all: boolean } }
  | { topic: typeof NODE_SAMPLES_TOPIC; type: 'sample'; id: number; data: NodeSampleMessage };

/** A tool request as the contract validated it (the node validates it again before it runs). */
export type ToolRequest =
  | { tool: 'ping'; body: PingRequestValue }
  | { tool: 'mtr'; body: MtrRequestValue }
  | { tool: 'keyframe'; body: KeyframeRequestValue }
  | { tool: 'mediacheck'; body: MediaCheckRequestValue };

export type ToolName = ToolRequest['tool'];

export type NodeToolsMessage =
  | { topic: typeof NODE_TOOLS_TOPIC; type: 'run'; id: string; data: { nodeId: number; request: ToolRequest } }
  | { topic: typeof NODE_TOOLS_TOPIC; type: 'abort'; id: string; data: { nodeId: number } }
  | { topic: typeof NODE_TOOLS_TOPIC; type: 'renew'; data: { runIds: string[] } }
  | { topic: typeof NODE_TOOLS_TOPIC; type: 'accepted'; id: string; data: { nodeId: number; nodeName: string } }
  | { topic: typeof NODE_TOOLS_TOPIC; type: 'refused'; id: string; data: { status: number; code: string; message: string } }
  | { topic: typeof NODE_TOOLS_TOPIC; type: 'event'; id: string; data: { seq: number; event: ToolRunEvent } }
  | { topic: typeof NODE_TOOLS_TOPIC; type: 'end'; id: string; data: { seq: number; end: ToolRunEnd } }
  | { topic: typeof NODE_TOOLS_TOPIC; type: 'alive'; data: { nodeId: number; runIds: string[] } };

/** The bus event as one of these messages, or undefined when it is of another topic. */
export function asNodeSamplesMessage(event: LiveEvent): NodeSamplesMessage | undefined {
  return event.topic === NODE_SAMPLES_TOPIC ? (event as NodeSamplesMessage) : undefined;
}

export function asNodeToolsMessage(event: LiveEvent): NodeToolsMessage | undefined {
  return event.topic === NODE_TOOLS_TOPIC ? (event as NodeToolsMessage) : undefined;
}
