import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../client.ts';

export type SystemInfo = Schemas['SystemInfo'];

export type NodeSummary = Schemas['NodeSummary'];

export const systemKeys = {
  info: ['system', 'info'] as const,
  nodes: ['system', 'nodes'] as const,
};

/** Versions, dev mode, features and node count: what the shell draws. */
export function useSystemInfo() {
  return useQuery({ queryKey: systemKeys.info, queryFn: () => unwrap(api.GET('/api/system/info')), staleTime: 5 * 60_000 });
}

const NO_FEATURES: Record<string, boolean> = {};

/** The system features that gate areas (e.g. ads), empty until SystemInfo has loaded. */
export function useFeatures(): Record<string, boolean> {
  return useSystemInfo().data?.features ?? NO_FEATURES;
}

/** The nodes of the cluster, for the header's node selector. */
export function useNodeSummaries(enabled = true) {
  return useQuery({ queryKey: systemKeys.nodes, queryFn: () => unwrap(api.GET('/api/system/nodes')), staleTime: 30_000, enabled });
}
