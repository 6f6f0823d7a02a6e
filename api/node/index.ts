import { mkdirSync } from 'node:fs';
import { JobRunner } from '../../engine/job-runner.ts';
import type { DataPaths } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { JobRuntimeRepository } from '../repositories/job-runtime.repository.ts';
import { SystemSampler } from '../services/system-sampler.ts';
import { Leader } from './leader.ts';
import { NodeReconciler, type BatchRunnerFactory, type RunnerFactory } from './node-reconciler.ts';
import { NodeSamplePublisher } from './sample-publisher.ts';
import { NodeToolHost, type ToolHostOptions } from './tool-host.ts';
import { ToolRunServer } from './tool-run-server.ts';

export interface LocalNode {
  reconciler: NodeReconciler;
  leader: Leader;
  /** This node's samples, published while an API process watches them. */
  samples: NodeSamplePublisher;
  /** The tools this node runs: for its own API process directly, for the others through `toolRuns`. */
  tools: NodeToolHost;
  toolRuns: ToolRunServer;
  stop(options?: { stopJobs: boolean }): Promise<void>;
}

export const createJobRunner: RunnerFactory = (spec, deps) => new JobRunner(spec, deps);

/**
 * This machine's node: the leader campaign (placement of auto jobs), the reconciler that runs
 * the jobs placed here, the publisher of its samples and the runner of the tools asked of it.
 * `mediaplane server` starts it beside the API; `mediaplane agent` alone.
 */
export async function startLocalNode(options: {
  db: Db;
  databaseUrl: string;
  bus: EventBus;
  nodeId: number;
  nodeName: string;
  paths: DataPaths;
  createRunner?: RunnerFactory;
  createBatchRunner?: BatchRunnerFactory;
  sweepIntervalMs?: number;
  /** How often the leader drops the job events past each job's statistics days (default hourly). */
  eventsPurgeIntervalMs?: number;
  /** This machine's sampler, shared with the API of the same process (default: one of its own). */
  sampler?: SystemSampler;
  tools?: ToolHostOptions;
  log: (line: string) => void;
}): Promise<LocalNode> {
  for (const dir of Object.values(options.paths)) mkdirSync(dir, { recursive: true });
  const leader = new Leader(options.db, options.databaseUrl, options.log, { eventsPurgeIntervalMs: options.eventsPurgeIntervalMs });
  const reconciler = new NodeReconciler(new JobRuntimeRepository(options.db), options.bus, {
    nodeId: options.nodeId,
    nodeName: options.nodeName,
    paths: options.paths,
    createRunner: options.createRunner ?? createJobRunner,
    createBatchRunner: options.createBatchRunner,
    leader,
    sweepIntervalMs: options.sweepIntervalMs,
    log: options.log,
  });
  await reconciler.start();
  const node = { id: options.nodeId, name: options.nodeName };
  const samples = new NodeSamplePublisher(options.bus, options.sampler ?? new SystemSampler(), { ...node, isLeader: () => leader.isLeader }, options.log);
  samples.start();
  const tools = new NodeToolHost(options.tools);
  const toolRuns = new ToolRunServer(options.bus, tools, node, options.log);
  toolRuns.start();
  return {
    reconciler,
    leader,
    samples,
    tools,
    toolRuns,
    stop: async (stopOptions = { stopJobs: true }) => {
      samples.stop();
      await toolRuns.stop();
      await reconciler.stop(stopOptions);
      await leader.stop();
    },
  };
}
