import { useEffect, useState } from 'react';
import type { Schemas } from '../client.ts';

export type DashboardStatus = Schemas['DashboardStatus'];
export type GpuDevice = Schemas['GpuDevice'];

export function dashboardStreamUrl(node: number | undefined): string {
  return node === undefined ? '/api/dashboard/stream' : `/api/dashboard/stream?node=${node}`;
}

/**
 * The live readings of a node (GET /api/dashboard/stream, Server-Sent Events): a status per
 * sample of the server's shared sampler. EventSource reconnects by itself after a drop.
 */
export function useDashboardStatus(node: number | undefined): { status: DashboardStatus | undefined; connected: boolean; error: boolean } {
  const [status, setStatus] = useState<DashboardStatus | undefined>(undefined);
  const [connected, setConnected] = useState(false);
  const [error, setError] = useState(false);
  useEffect(() => {
    setStatus(undefined);
    setError(false);
    const source = new EventSource(dashboardStreamUrl(node), { withCredentials: true });
    source.addEventListener('open', () => {
      setConnected(true);
      setError(false);
    });
    source.addEventListener('status', (event) => {
      try {
        setStatus(JSON.parse((event as MessageEvent<string>).data) as DashboardStatus);
      } catch {
        // a status this version does not read
      }
    });
    source.addEventListener('error', () => {
      setConnected(false);
      setError(true);
    });
    return () => source.close();
  }, [node]);
  return { status, connected, error };
}
