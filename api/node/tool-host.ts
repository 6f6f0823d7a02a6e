import { runKeyframeInterval } from '../../engine/tools/keyframe-interval.ts';
import { runMediaCheck } from '../../engine/tools/media-check.ts';
import { runMtr } from '../../engine/tools/mtr.ts';
import { runPing } from '../../engine/tools/ping.ts';
import type { ToolRunEnd, ToolRunEvent } from '../../engine/tools/types.ts';
import { KeyframeRequest, MediaCheckRequest, MtrRequest, PingRequest } from '../../openapi/schemas/tools.ts';
import type { z } from 'zod';
import { AppError, ValidationError } from '../errors.ts';
import type { ToolRequest } from '../events/node-topics.ts';

export interface ToolHostOptions {
  /** Programs to run instead of those on PATH. */
  programs?: Partial<Record<'ping' | 'mtr' | 'ffprobe', string>>;
  /** Runs at once on this node (default 32). */
  maxRuns?: number;
}

/** A run this node admitted: its target as shown, and how to carry it out. */
export interface HostedToolRun {
  target: string;
  execute(signal: AbortSignal, emit: (event: ToolRunEvent) => void): Promise<ToolRunEnd>;
}

/**
 * The diagnostic tools of spec 03 as this node runs them: a request is checked again against the
 * contract (whoever sent it), admitted within the node's bound of runs at once, and handed to
 * engine/tools, which runs the program without a shell and ends it when the signal aborts. The
 * API process of this node calls it directly; other API processes reach it through the bus
 * (api/node/tool-run-server.ts).
 */
export class NodeToolHost {
  private running = 0;

  constructor(private readonly options: ToolHostOptions = {}) {}

  get runningCount(): number {
    return this.running;
  }

  /** Admit a run (429 TOO_MANY_RUNS when the node is at its bound, 400 on a request the contract refuses). */
  admit(request: ToolRequest): HostedToolRun {
    const max = this.options.maxRuns ?? 32;
    if (this.running >= max) {
      throw new AppError(429, 'TOO_MANY_RUNS', `${this.running} tool runs are going on this node: try again in a moment.`, undefined, { 'Retry-After': '5' });
    }
    const plan = this.plan(request);
    this.running += 1;
    let started = false;
    return {
      target: plan.target,
      execute: async (signal, emit) => {
        if (started) throw new Error('a tool run executes once');
        started = true;
        try {
          return await plan.execute(signal, emit);
        } finally {
          this.running -= 1;
        }
      },
    };
  }

  private plan(request: ToolRequest): HostedToolRun {
    const programs = this.options.programs ?? {};
    const checked = <S extends z.ZodType>(schema: S, body: unknown): z.output<S> => {
      const result = schema.safeParse(body);
      if (!result.success) throw new ValidationError(`The node refused the ${request.tool} request: ${result.error.issues.map((issue) => issue.message).join('; ')}`);
      return result.data;
    };
    switch (request.tool) {
      case 'ping': {
        const { address, count } = checked(PingRequest, request.body);
        return { target: address, execute: (signal, emit) => runPing(address, count, { signal, emit, program: programs.ping }) };
      }
      case 'mtr': {
        const { host, count, noDns } = checked(MtrRequest, request.body);
        return { target: host, execute: (signal, emit) => runMtr(host, count, noDns, { signal, emit, program: programs.mtr }) };
      }
      case 'keyframe': {
        const body = checked(KeyframeRequest, request.body);
        const token = body.tokenRequired ? body.token : undefined;
        return { target: body.uri, execute: (signal, emit) => runKeyframeInterval(body.uri, token, body.intervalCount, { signal, emit, program: programs.ffprobe }) };
      }
      case 'mediacheck': {
        const body = checked(MediaCheckRequest, request.body);
        const token = body.tokenRequired ? body.token : undefined;
        return { target: body.uri, execute: (signal, emit) => runMediaCheck(body.uri, token, { signal, emit, program: programs.ffprobe }) };
      }
      default:
        throw new ValidationError(`The node does not know the tool ${JSON.stringify((request as { tool: unknown }).tool)}.`);
    }
  }
}
