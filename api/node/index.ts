import { mkdirSync } from 'node:fs';
import { JobRunner } from '../../engine/job-runner.ts';
import type { DataPaths } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { JobRuntimeRepository } from '../repositories/job-runtime.repository.ts';
import { Leader } from './leader.ts';
import { NodeReconciler, type BatchRunnerFactory, type RunnerFactory } from './node-reconciler.ts';

export interface LocalNode {
  reconciler: NodeReconciler;
  leader: Leader;
  stop(options?: { stopJobs: boolean }): Promise<void>;
}

export const createJobRunner: RunnerFactory = (spec, deps) => new JobRunner(spec, deps);

/**
 * This machine's node: the leader campaign (placement of auto jobs) and the reconciler that runs
 * the jobs placed here. `mediaplane server` starts it beside the API.
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
  return {
    reconciler,
    leader,
    stop: async (stopOptions = { stopJobs: true }) => {
      await reconciler.stop(stopOptions);
      await leader.stop();
    },
  };
}
