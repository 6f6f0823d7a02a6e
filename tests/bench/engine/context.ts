import type { MeasurementResult } from './report.ts';
import type { ControlPlane } from './support/control-plane.ts';
import type { Sender } from './support/media.ts';
import type { PortPool } from './support/udp.ts';

export interface BenchOptions {
  /** Steady window of the supervision measurement, seconds. */
  seconds: number;
  /** Relays of the supervision measurement. */
  relays: number;
  /** Windows of the supervision measurement after the server's first minute (both sides run in each). */
  rounds: number;
  /** Starts timed by the start-latency measurement. */
  starts: number;
  /** kill -9 timed by the crash measurement. */
  kills: number;
  /** Failovers timed by the failover measurement. */
  failovers: number;
  /** Media seconds each side of the ABR comparison encodes. */
  abrSeconds: number;
  capacityStep: number;
  capacityMax: number;
  /** Seconds each capacity step is watched for falling behind. */
  capacityWindow: number;
  /** Wall seconds the capacity ramp may take, both sides together. */
  capacityBudget: number;
  /** Ramp bare ffmpeg as well (doubles the time). */
  capacityBare: boolean;
}

export interface BenchContext {
  options: BenchOptions;
  log: (line: string) => void;
  ports: PortPool;
  /** The replayed 720p25 3 Mbit/s MPEG-TS source (encoded once, cached in the temp dir). */
  source(): Promise<string>;
  /** The control plane of this run (started on first use, stopped at the end). */
  controlPlane(): Promise<ControlPlane>;
  /** A paced sender that the run stops at the end if the measurement did not. */
  startSender(ports: number[]): Promise<Sender>;
  /** Figures one measurement leaves for another (e.g. bare ffmpeg's start, the reference of the crash measurement). */
  shared: { bareStartMs?: number };
}

export interface Measurement {
  /** For `--only`. */
  name: string;
  title: string;
  run(ctx: BenchContext): Promise<MeasurementResult>;
}
