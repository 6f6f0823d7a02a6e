import type { z } from 'zod';
import { jobPermissions } from '../../openapi/permissions.ts';
import type { BulkAction, BulkRequest, BulkResult, RESTART_MODES } from '../../openapi/schemas/job-api.ts';
import { can, type Principal } from '../auth/principal.ts';
import { AppError, ConflictError, ForbiddenError } from '../errors.ts';
import type { JobKindName, JobsRepository } from '../repositories/jobs.repository.ts';
import type { JobDto } from './job-dto.ts';
import { actorOf, jobNotFound, KIND_LABEL } from './job-write-rules.ts';
import type { JobsService } from './jobs.service.ts';

type RestartMode = (typeof RESTART_MODES)[number];

/** Which permission set of jobPermissions(kind) each bulk action needs. */
const BULK_PERMISSION = { start: 'onOff', stop: 'onOff', hard_restart: 'restart', soft_restart: 'restart', delete: 'delete' } as const;

/**
 * The desired state of a job: the switch (start, stop), restart orders (hard, soft, reload) and
 * the same over many jobs at once. Each is a change of the jobs row followed by an event on the
 * kind's topic, which wakes the node that runs the job.
 */
export class JobActionsService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly service: JobsService,
  ) {}

  async start(principal: Principal, kind: JobKindName, id: number): Promise<JobDto> {
    await this.switchJob(principal, kind, id, true);
    return this.service.get(principal, kind, id);
  }

  async stop(principal: Principal, kind: JobKindName, id: number): Promise<JobDto> {
    await this.switchJob(principal, kind, id, false);
    return this.service.get(principal, kind, id);
  }

  async restart(principal: Principal, kind: JobKindName, id: number, mode: RestartMode): Promise<JobDto> {
    await this.restartJob(principal, kind, id, mode);
    return this.service.get(principal, kind, id);
  }

  /**
   * One action over many jobs, each checked and acted on alone: one refusal (not found, a template,
   * a job that is off) does not stop the others. The action's own permission is needed for all:
   * each bulk operation declares it, and it is checked here too.
   */
  async bulk(principal: Principal, kind: JobKindName, action: BulkAction, request: z.output<typeof BulkRequest>): Promise<z.output<typeof BulkResult>> {
    const needed = jobPermissions(kind)[BULK_PERMISSION[action]].anyOf;
    if (!can(principal, ...needed)) throw new ForbiddenError(`action ${action}: needs ${needed.join(' or ')}.`);
    const results: z.output<typeof BulkResult>['results'] = [];
    for (const id of [...new Set(request.ids)]) {
      try {
        await this.act(principal, kind, id, action);
        results.push({ id, ok: true });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push({ id, ok: false, code: error.code, message: error.message });
      }
    }
    return { results };
  }

  private act(principal: Principal, kind: JobKindName, id: number, action: BulkAction): Promise<void> {
    switch (action) {
      case 'start':
        return this.switchJob(principal, kind, id, true);
      case 'stop':
        return this.switchJob(principal, kind, id, false);
      case 'hard_restart':
        return this.restartJob(principal, kind, id, 'hard');
      case 'soft_restart':
        return this.restartJob(principal, kind, id, 'soft');
      case 'delete':
        return this.service.delete(kind, id);
    }
  }

  private async switchJob(principal: Principal, kind: JobKindName, id: number, active: boolean): Promise<void> {
    if (!(await this.jobs.setActive(kind, id, active, actorOf(principal)))) {
      const row = await this.jobs.findById(kind, id);
      if (!row) throw jobNotFound(kind, id);
      // A template never runs; switching one off is already so.
      if (active) throw new ConflictError(`${row.name} is a template: a template cannot run.`, 'TEMPLATE');
      return;
    }
    await this.service.publish(kind, 'desired', id, { active });
  }

  private async restartJob(principal: Principal, kind: JobKindName, id: number, mode: RestartMode): Promise<void> {
    if (!(await this.jobs.requestRestart(kind, id, mode, actorOf(principal)))) {
      const row = await this.jobs.findById(kind, id);
      if (!row) throw jobNotFound(kind, id);
      if (row.is_template) throw new ConflictError(`${row.name} is a template: a template cannot run.`, 'TEMPLATE');
      throw new ConflictError(`${KIND_LABEL[kind]} ${row.name} is off: switch it on to restart it.`, 'JOB_OFF');
    }
    await this.service.publish(kind, 'desired', id, { restart: mode });
  }
}
