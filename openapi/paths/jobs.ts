import { defineOperation } from '../operation.ts';
import { JOB_KIND_PREFIX, jobPermissions } from '../permissions.ts';
import { ErrorBody, IdParams, OkResponse } from '../schemas/common.ts';
import {
  BULK_ACTION_PATHS,
  BulkRequest,
  BulkResult,
  type BulkAction,
  CommentCreate,
  CommentParams,
  CreateFromTemplateRequest,
  Endpoints,
  FeatureCatalogue,
  Job,
  JobListQuery,
  JobPage,
  JobWrite,
  RestartRequest,
  SaveAsTemplateRequest,
  UpdateJobQuery,
} from '../schemas/job-api.ts';
import { JobComment, type JOB_KINDS } from '../schemas/jobs.ts';

type Kind = (typeof JOB_KINDS)[number];

const invalid = { description: 'A field breaks a rule; the details name each field and its rule.', schema: ErrorBody };

/**
 * The operations of one job kind. Relays and encodings get the same set, under /api/relays and
 * /api/encodings, with operationIds such as listRelays and startEncoding; the object is keyed by
 * the verb so code can be written once for both kinds (`jobOperations[kind].start`). The template
 * operations come before `get` so that /templates is never read as an id when routes are mounted
 * in this order.
 */
function operationsOf<K extends Kind>(kind: K) {
  const Kind = kind === 'relay' ? 'Relay' : 'Encoding';
  const Kinds = `${Kind}s`;
  const base = `/api/${kind}s`;
  const tag = `${kind}s`;
  const can = jobPermissions(kind);
  const notFound = { description: `No ${kind} with that id.`, schema: ErrorBody };
  const templateNotFound = { description: 'No template with that id.', schema: ErrorBody };
  /** One action of the bulk bar over the selected jobs, declaring the permission of the same action on one job. */
  const bulk = (action: BulkAction, name: string, summary: string, permission: { anyOf: readonly string[] }) =>
    defineOperation({
      operationId: `${name.charAt(0).toLowerCase()}${name.slice(1)}${Kinds}`,
      method: 'post',
      path: `${base}/bulk/${BULK_ACTION_PATHS[action]}`,
      tag,
      summary,
      description: 'Each job is checked and acted on alone: the result lists the outcome per id, and one refusal (not found, a template, a job that is off) does not stop the others.',
      permission,
      body: BulkRequest,
      responses: { 200: { description: 'The outcome per id.', schema: BulkResult }, 400: invalid },
    });

  return {
    list: defineOperation({
      operationId: `list${Kinds}`,
      method: 'get',
      path: base,
      tag,
      summary: `List ${kind}s with search, filters, sort and paging, and the footer counts`,
      permission: can.view,
      query: JobListQuery,
      responses: { 200: { description: `A page of ${kind}s.`, schema: JobPage } },
    }),
    listTemplates: defineOperation({
      operationId: `list${Kind}Templates`,
      method: 'get',
      path: `${base}/templates`,
      tag,
      summary: `List ${kind} templates`,
      permission: can.view,
      query: JobListQuery,
      responses: { 200: { description: 'A page of templates.', schema: JobPage } },
    }),
    getTemplate: defineOperation({
      operationId: `get${Kind}Template`,
      method: 'get',
      path: `${base}/templates/{id}`,
      tag,
      summary: `Get a ${kind} template`,
      permission: can.view,
      params: IdParams,
      responses: { 200: { description: 'The template.', schema: Job }, 404: templateNotFound },
    }),
    createTemplate: defineOperation({
      operationId: `create${Kind}Template`,
      method: 'post',
      path: `${base}/templates`,
      tag,
      summary: `Create a ${kind} template`,
      permission: can.fullEdit,
      body: JobWrite,
      responses: { 201: { description: 'Created.', schema: Job }, 400: invalid },
    }),
    updateTemplate: defineOperation({
      operationId: `update${Kind}Template`,
      method: 'put',
      path: `${base}/templates/{id}`,
      tag,
      summary: `Update a ${kind} template`,
      permission: can.templateEdit,
      params: IdParams,
      body: JobWrite,
      responses: { 200: { description: 'Updated.', schema: Job }, 400: invalid, 404: templateNotFound },
    }),
    deleteTemplate: defineOperation({
      operationId: `delete${Kind}Template`,
      method: 'delete',
      path: `${base}/templates/{id}`,
      tag,
      summary: `Delete a ${kind} template`,
      permission: can.templateDelete,
      params: IdParams,
      responses: { 200: { description: 'Deleted.', schema: OkResponse }, 404: templateNotFound },
    }),
    createFromTemplate: defineOperation({
      operationId: `create${Kind}FromTemplate`,
      method: 'post',
      path: `${base}/templates/{id}/jobs`,
      tag,
      summary: `Create a ${kind} from a template`,
      description: `Counts against the user's ${kind}s limit like any create.`,
      permission: can.edit,
      params: IdParams,
      body: CreateFromTemplateRequest,
      responses: { 201: { description: `The new ${kind}.`, schema: Job }, 400: invalid, 404: templateNotFound, 409: { description: 'The user\'s limit is reached.', schema: ErrorBody } },
    }),
    get: defineOperation({
      operationId: `get${Kind}`,
      method: 'get',
      path: `${base}/{id}`,
      tag,
      summary: `Get a ${kind} with its status and comments`,
      permission: can.view,
      params: IdParams,
      responses: { 200: { description: `The ${kind}.`, schema: Job }, 404: notFound },
    }),
    create: defineOperation({
      operationId: `create${Kind}`,
      method: 'post',
      path: base,
      tag,
      summary: `Create a ${kind}`,
      description: `Refused when the user's ${kind}s limit is reached. Changing features needs ADMIN. The alarm switch is taken only from a user with ALARMS_EDIT (otherwise it is off).`,
      permission: can.edit,
      body: JobWrite,
      responses: { 201: { description: 'Created.', schema: Job }, 400: invalid, 409: { description: 'The user\'s limit is reached.', schema: ErrorBody } },
    }),
    update: defineOperation({
      operationId: `update${Kind}`,
      method: 'put',
      path: `${base}/{id}`,
      tag,
      summary: `Update a ${kind}`,
      description: 'A running job keeps running with its old configuration and is marked changedConfigSinceLastStart, unless restart=true ("Update & Restart"). Adding outputs needs the full EDIT permission; a saved (locked) job refuses changes other than unlocking it. The alarm switch is taken only from a user with ALARMS_EDIT; otherwise, or when absent, the stored one is kept.',
      permission: can.edit,
      params: IdParams,
      query: UpdateJobQuery,
      body: JobWrite,
      responses: { 200: { description: 'Updated.', schema: Job }, 400: invalid, 404: notFound, 409: { description: 'The job is locked (saved).', schema: ErrorBody } },
    }),
    delete: defineOperation({
      operationId: `delete${Kind}`,
      method: 'delete',
      path: `${base}/{id}`,
      tag,
      summary: `Delete a ${kind}; a running one is stopped first`,
      permission: can.delete,
      params: IdParams,
      responses: { 200: { description: 'Deleted.', schema: OkResponse }, 404: notFound },
    }),
    start: defineOperation({
      operationId: `start${Kind}`,
      method: 'post',
      path: `${base}/{id}/start`,
      tag,
      summary: `Switch a ${kind} on`,
      permission: can.onOff,
      params: IdParams,
      responses: { 200: { description: 'Switched on; its node starts it.', schema: Job }, 404: notFound, 409: { description: 'A template cannot run.', schema: ErrorBody } },
    }),
    stop: defineOperation({
      operationId: `stop${Kind}`,
      method: 'post',
      path: `${base}/{id}/stop`,
      tag,
      summary: `Switch a ${kind} off`,
      permission: can.onOff,
      params: IdParams,
      responses: { 200: { description: 'Switched off; its node stops it.', schema: Job }, 404: notFound },
    }),
    restart: defineOperation({
      operationId: `restart${Kind}`,
      method: 'post',
      path: `${base}/{id}/restart`,
      tag,
      summary: `Hard restart, soft restart or reload a running ${kind}`,
      permission: can.restart,
      params: IdParams,
      body: RestartRequest,
      responses: { 200: { description: 'The restart is asked of its node.', schema: Job }, 404: notFound, 409: { description: 'The job is off.', schema: ErrorBody } },
    }),
    bulkStart: bulk('start', 'BulkStart', `Switch the selected ${kind}s on`, can.onOff),
    bulkStop: bulk('stop', 'BulkStop', `Switch the selected ${kind}s off`, can.onOff),
    bulkHardRestart: bulk('hard_restart', 'BulkHardRestart', `Hard restart the selected ${kind}s (kill and start)`, can.restart),
    bulkSoftRestart: bulk('soft_restart', 'BulkSoftRestart', `Soft restart the selected ${kind}s (graceful stop and start)`, can.restart),
    bulkDelete: bulk('delete', 'BulkDelete', `Delete the selected ${kind}s; running ones are stopped first`, can.delete),
    saveAsTemplate: defineOperation({
      operationId: `save${Kind}AsTemplate`,
      method: 'post',
      path: `${base}/{id}/template`,
      tag,
      summary: `Save a ${kind}'s configuration as a new template (CREATE) or over an existing one (UPDATE)`,
      description: `CREATE adds a template: ${JOB_KIND_PREFIX[kind]}_EDIT. UPDATE edits one: ${JOB_KIND_PREFIX[kind]}_EDIT or ${JOB_KIND_PREFIX[kind]}_VIEW_EDIT.`,
      permission: can.templateEdit,
      params: IdParams,
      body: SaveAsTemplateRequest,
      responses: { 201: { description: 'The template.', schema: Job }, 400: invalid, 404: notFound },
    }),
    addComment: defineOperation({
      operationId: `add${Kind}Comment`,
      method: 'post',
      path: `${base}/{id}/comments`,
      tag,
      summary: `Add a comment (NOTICE, WARNING or CRITICAL) to a ${kind}`,
      permission: can.comment,
      params: IdParams,
      body: CommentCreate,
      responses: { 201: { description: 'The comment.', schema: JobComment }, 400: invalid, 404: notFound },
    }),
    deleteComment: defineOperation({
      operationId: `delete${Kind}Comment`,
      method: 'delete',
      path: `${base}/{id}/comments/{commentId}`,
      tag,
      summary: `Delete a comment of a ${kind}`,
      permission: can.comment,
      params: CommentParams,
      responses: { 200: { description: 'Deleted.', schema: OkResponse }, 404: { description: 'No such job or comment.', schema: ErrorBody } },
    }),
  };
}

export const jobOperations = { relay: operationsOf('relay'), encoding: operationsOf('encoding') } as const;

export const jobSharedOperations = {
  listJobFeatures: defineOperation({
    operationId: 'listJobFeatures',
    method: 'get',
    path: '/api/job-features',
    tag: 'jobs',
    summary: 'The features of the admin-only features table of relays and encodings',
    permission: 'admin',
    responses: { 200: { description: 'The catalogue with global values.', schema: FeatureCatalogue } },
  }),
  getEndpoints: defineOperation({
    operationId: 'getEndpoints',
    method: 'get',
    path: '/api/endpoints',
    tag: 'jobs',
    summary: 'The integration endpoints (Runprox URL, DVB URL)',
    permission: { anyOf: ['ENCODING_VIEW', 'ENCODING_EDIT', 'SETTINGS_VIEW', 'SETTINGS_EDIT'] },
    responses: { 200: { description: 'The endpoints; empty strings until set.', schema: Endpoints } },
  }),
  updateEndpoints: defineOperation({
    operationId: 'updateEndpoints',
    method: 'put',
    path: '/api/endpoints',
    tag: 'jobs',
    summary: 'Update the integration endpoints (both required)',
    permission: { anyOf: ['ENCODING_EDIT', 'SETTINGS_EDIT'] },
    body: Endpoints,
    responses: { 200: { description: 'Updated.', schema: Endpoints }, 400: invalid },
  }),
};

/** Every job operation, for the registry. */
export const allJobOperations = { ...prefixed('relay'), ...prefixed('encoding'), ...jobSharedOperations };

function prefixed(kind: Kind) {
  return Object.fromEntries(Object.values(jobOperations[kind]).map((op) => [op.operationId, op]));
}

export type JobOperations = (typeof jobOperations)[Kind];

/** The operation of each bulk action, by its key in jobOperations[kind]. */
export const BULK_OPERATION_KEYS = {
  start: 'bulkStart',
  stop: 'bulkStop',
  hard_restart: 'bulkHardRestart',
  soft_restart: 'bulkSoftRestart',
  delete: 'bulkDelete',
} as const satisfies Record<BulkAction, keyof JobOperations>;
