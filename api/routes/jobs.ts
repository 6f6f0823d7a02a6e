import { BULK_OPERATION_KEYS, jobOperations, jobSharedOperations } from '../../openapi/paths/jobs.ts';
import { BULK_ACTIONS } from '../../openapi/schemas/job-api.ts';
import type { JOB_KINDS } from '../../openapi/schemas/jobs.ts';
import { implement, type Implementation } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

type Kind = (typeof JOB_KINDS)[number];

const ok = { ok: true as const };

/** The operations of one kind, in the contract's order: the template routes come before /{id}. */
function kindRoutes(kind: Kind, { jobs, jobActions, jobTemplates, jobComments }: Services): Implementation[] {
  const op = jobOperations[kind];
  return [
    implement(op.list, async ({ principal, query }) => jobs.list(principal, kind, query)),
    implement(op.listTemplates, async ({ principal, query }) => jobTemplates.list(principal, kind, query)),
    implement(op.getTemplate, async ({ principal, params }) => jobTemplates.get(principal, kind, params.id)),
    implement(op.createTemplate, async ({ principal, body }) => jobs.create(principal, kind, body, { template: true })),
    implement(op.updateTemplate, async ({ principal, params, body }) => jobs.update(principal, kind, params.id, body, { templates: true })),
    implement(op.deleteTemplate, async ({ params }) => {
      await jobs.delete(kind, params.id, { templates: true });
      return ok;
    }),
    implement(op.createFromTemplate, async ({ principal, params, body }) => jobTemplates.createFromTemplate(principal, kind, params.id, body)),
    implement(op.get, async ({ principal, params }) => jobs.get(principal, kind, params.id)),
    implement(op.create, async ({ principal, body }) => jobs.create(principal, kind, body)),
    implement(op.update, async ({ principal, params, query, body }) => jobs.update(principal, kind, params.id, body, { restart: query.restart === 'true' })),
    implement(op.delete, async ({ params }) => {
      await jobs.delete(kind, params.id);
      return ok;
    }),
    implement(op.start, async ({ principal, params }) => jobActions.start(principal, kind, params.id)),
    implement(op.stop, async ({ principal, params }) => jobActions.stop(principal, kind, params.id)),
    implement(op.restart, async ({ principal, params, body }) => jobActions.restart(principal, kind, params.id, body.mode)),
    ...BULK_ACTIONS.map((action) => implement(op[BULK_OPERATION_KEYS[action]], async ({ principal, body }) => jobActions.bulk(principal, kind, action, body))),
    implement(op.saveAsTemplate, async ({ principal, params, body }) => jobTemplates.saveAsTemplate(principal, kind, params.id, body)),
    implement(op.addComment, async ({ principal, params, body }) => jobComments.add(principal, kind, params.id, body)),
    implement(op.deleteComment, async ({ params }) => {
      await jobComments.delete(kind, params.id, params.commentId);
      return ok;
    }),
  ];
}

export function jobRoutes(services: Services): Implementation[] {
  const { listJobFeatures, getEndpoints, updateEndpoints } = jobSharedOperations;
  return [
    ...kindRoutes('relay', services),
    ...kindRoutes('encoding', services),
    implement(listJobFeatures, async () => services.jobSettings.features()),
    implement(getEndpoints, async () => services.jobSettings.endpoints()),
    implement(updateEndpoints, async ({ body }) => services.jobSettings.updateEndpoints(body)),
  ];
}
