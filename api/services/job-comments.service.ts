import type { z } from 'zod';
import type { CommentCreate } from '../../openapi/schemas/job-api.ts';
import type { Principal } from '../auth/principal.ts';
import { AppError } from '../errors.ts';
import type { JobKindName, JobsRepository } from '../repositories/jobs.repository.ts';
import { commentOf, type JobDto } from './job-dto.ts';
import { jobNotFound } from './job-write-rules.ts';
import type { JobsService } from './jobs.service.ts';

/** Notes on a job (NOTICE, WARNING, CRITICAL); the list colours a job's comment icon by the worst. */
export class JobCommentsService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly service: JobsService,
  ) {}

  async add(principal: Principal, kind: JobKindName, id: number, input: z.output<typeof CommentCreate>): Promise<JobDto['comments'][number]> {
    if (!(await this.jobs.findById(kind, id))) throw jobNotFound(kind, id);
    const row = await this.jobs.addComment(id, { type: input.type, comment: input.comment, createdBy: principal.username }).catch((error: Error & { code?: string }) => {
      // Deleted meanwhile.
      throw error.code === '23503' ? jobNotFound(kind, id) : error;
    });
    await this.service.publish(kind, 'comments', id);
    return commentOf(row);
  }

  async delete(kind: JobKindName, id: number, commentId: number): Promise<void> {
    if (!(await this.jobs.findById(kind, id))) throw jobNotFound(kind, id);
    if (!(await this.jobs.deleteComment(id, commentId))) throw new AppError(404, 'NOT_FOUND', `No comment with id ${commentId} on ${kind} ${id}`);
    await this.service.publish(kind, 'comments', id);
  }
}
