import type { z } from 'zod';
import type { CreateFromTemplateRequest, SaveAsTemplateRequest } from '../../openapi/schemas/job-api.ts';
import { JOB_KIND_PREFIX } from '../../openapi/permissions.ts';
import { can, type Principal } from '../auth/principal.ts';
import { ForbiddenError } from '../errors.ts';
import type { JobKindName, JobsRepository } from '../repositories/jobs.repository.ts';
import { configOf, type JobDto } from './job-dto.ts';
import { columnsOf, jobNotFound, templateNotFound, type JobListQueryValue } from './job-write-rules.ts';
import type { JobsService } from './jobs.service.ts';

/**
 * Templates of relays and encodings: jobs that never run (is_template), saved from a job (CREATE a
 * new one, or UPDATE an existing one with the job's configuration) and used to create jobs.
 */
export class JobTemplatesService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly service: JobsService,
  ) {}

  list(viewer: Principal, kind: JobKindName, query: JobListQueryValue) {
    return this.service.list(viewer, kind, query, true);
  }

  get(viewer: Principal, kind: JobKindName, id: number): Promise<JobDto> {
    return this.service.get(viewer, kind, id, true);
  }

  /**
   * Save a job's configuration as a template: a new one named `name` (CREATE), or over the
   * configuration of `templateId` (UPDATE), which keeps its own name. Spec 01 §6: adding a
   * template needs the full EDIT; editing one, EDIT or VIEW_EDIT (the operation's permission).
   */
  async saveAsTemplate(principal: Principal, kind: JobKindName, id: number, request: z.output<typeof SaveAsTemplateRequest>): Promise<JobDto> {
    const edit = `${JOB_KIND_PREFIX[kind]}_EDIT`;
    if (request.templateType === 'CREATE' && !can(principal, edit)) throw new ForbiddenError(`Adding a template needs ${edit}.`);
    const job = await this.jobs.findById(kind, id);
    if (!job) throw jobNotFound(kind, id);
    const config = { ...configOf(job), name: job.name, node: job.node_id };
    if (request.templateType === 'CREATE') {
      const row = await this.service.insert(principal, kind, { ...config, name: request.name as string }, { template: true, templateType: 'CREATE' });
      return this.service.get(principal, kind, row.id, true);
    }
    const templateId = request.templateId as number;
    await this.jobs.transaction(async (jobs) => {
      const template = await jobs.findForUpdate(kind, templateId);
      if (!template || !template.is_template) throw templateNotFound(kind, templateId);
      await jobs.updateConfig(templateId, { ...columnsOf({ ...config, name: template.name }), saved: template.saved, template_type: 'UPDATE' });
    });
    await this.service.publish(kind, 'updated', templateId);
    return this.service.get(principal, kind, templateId, true);
  }

  /** A new job with the template's configuration and the given name; it counts against the creator's limit. */
  async createFromTemplate(principal: Principal, kind: JobKindName, templateId: number, request: z.output<typeof CreateFromTemplateRequest>): Promise<JobDto> {
    const template = await this.jobs.findById(kind, templateId);
    if (!template || !template.is_template) throw templateNotFound(kind, templateId);
    const config = { ...configOf(template), name: request.name, node: template.node_id };
    const row = await this.service.insert(principal, kind, config, { template: false });
    return this.service.get(principal, kind, row.id);
  }
}
