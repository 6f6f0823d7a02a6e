import { z } from 'zod';
import { Timestamp } from './common.ts';
import { INPUT_TYPES, JobComment, JobInput, JobKind, JobStatus, OUTPUT_TYPES, VideoType } from './jobs.ts';

/**
 * The shapes the jobs API speaks (relays, encodings and their templates): what a list row, a full
 * job, a write and each action carry. The entity and its rules live in jobs.ts.
 */

/** A comma-separated query value (`node=1,2`), parsed into a list of `item`. */
function csvOf<T extends z.ZodType>(item: T, description: string) {
  return z
    .string()
    .max(2000)
    .transform((value) => value.split(',').map((part) => part.trim()).filter(Boolean))
    .pipe(z.array(item) as unknown as z.ZodType<z.output<T>[], string[]>)
    .optional()
    .describe(`${description} Comma-separated; any of them matches.`);
}

/** Spec 01 §6: ALARMS_VIEW or ALARMS_EDIT shows the job alarm switch. */
const ALARMED_READ = 'The alarm switch: raise alarms for this job. Present only for users with ALARMS_VIEW or ALARMS_EDIT.';

export const JOB_STATUS_FILTERS = ['active', 'inactive', 'streaming', 'waiting', 'failed'] as const;

export const JobListQuery = z.object({
  search: z.string().max(200).optional().describe('Case-insensitive match on the name, or an exact ID.'),
  type: VideoType.optional().describe('LIVE or VOD.'),
  status: z
    .enum(JOB_STATUS_FILTERS)
    .optional()
    .describe('active: switched on; inactive: switched off; streaming: running; waiting: switched on but not running yet (starting or restarting); failed: gave up after its restart attempts.'),
  node: csvOf(z.coerce.number().int().positive(), 'Node ids.'),
  preset: csvOf(z.coerce.number().int().positive(), 'Video preset ids (encodings).'),
  outputTypes: csvOf(z.enum(OUTPUT_TYPES), 'Output types.'),
  inputTypes: csvOf(z.enum(INPUT_TYPES), 'Input types.'),
  sort: z.enum(['id', 'name']).default('id'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).default(1).describe('1-based page number.'),
  size: z.coerce.number().int().min(1).max(500).default(25).describe('Items per page.'),
});

export const CommentLevel = z.enum(['NOTICE', 'WARNING', 'CRITICAL']).meta({ id: 'CommentLevel', description: 'How serious a comment is.' });

/** Labels shown beside the output types in the list (spec 01 §2.5). */
export const OutputMarkers = z
  .object({
    multiProfile: z.boolean().describe('"M": a multi-profile HLS, DASH or CMAF output.'),
    encrypted: z.boolean().describe('"E": an encrypted or DRM output.'),
    ad: z.boolean().describe('AD: an output with ad markers.'),
  })
  .meta({ id: 'OutputMarkers', description: 'The M / E / AD labels of a job\'s outputs.' });

export const JobSummary = z
  .object({
    id: z.number().int(),
    kind: JobKind,
    name: z.string(),
    videoType: VideoType,
    active: z.boolean().describe('The on/off switch (desired state).'),
    saved: z.boolean().describe('Locked against edits.'),
    isTemplate: z.boolean(),
    templateType: z.enum(['CREATE', 'UPDATE']).nullable(),
    changedConfigSinceLastStart: z.boolean().describe('Running with an older configuration than the stored one: a reload applies it.'),
    node: z.number().int().nullable().describe('Chosen node; null = auto.'),
    nodeName: z.string().nullable().describe('Name of the chosen node, or of the node it runs on when auto.'),
    preset: z.object({ id: z.number().int(), name: z.string() }).nullable().describe('Encodings: the video preset.'),
    inputType: z.enum(INPUT_TYPES),
    inputUri: z.string().nullable().describe('The input URL (type uri), token removed.'),
    outputTypes: z.array(z.enum(OUTPUT_TYPES)).describe('Types of the enabled outputs, in order.'),
    outputMarkers: OutputMarkers,
    worstComment: CommentLevel.nullable().describe('The most serious comment, colouring the comment icon; null without comments.'),
    commentCount: z.number().int(),
    alarmed: z.boolean().optional().describe(ALARMED_READ),
    statistics: z.boolean(),
    createdBy: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    status: JobStatus,
  })
  .meta({ id: 'JobSummary', description: 'A row of the relay, encoding or template list.' });

export const JobCounts = z
  .object({
    total: z.number().int(),
    active: z.number().int().describe('Switched on.'),
    failed: z.number().int().describe('Gave up after their restart attempts.'),
    waiting: z.number().int().describe('Switched on, not running yet.'),
  })
  .meta({ id: 'JobCounts', description: 'The footer counts of a job list (over every job of the kind, not the page).' });

export const JobPage = z
  .object({ items: z.array(JobSummary), total: z.number().int().describe('Items matching the search and filters.'), page: z.number().int(), size: z.number().int(), counts: JobCounts })
  .meta({ id: 'JobPage', description: 'A page of jobs with the footer counts.' });

/** What an operator writes: the entity's editable fields (rules of spec 01 §5 checked by the service for the kind). */
export const JobWrite = JobInput.extend({
  saved: z.boolean().default(false).describe('Lock the job against edits (the saved flag).'),
  alarmed: z
    .boolean()
    .optional()
    .describe('The alarm switch. Taken only from a user with ALARMS_EDIT; otherwise, and when absent, the stored value is kept (false for a new job).'),
}).meta({ id: 'JobWrite', description: 'A relay, encoding or template as written by an operator. Encoding-only fields are ignored for relays.' });

export const Job = JobInput.extend({
  alarmed: z.boolean().optional().describe(ALARMED_READ),
  id: z.number().int(),
  kind: JobKind,
  active: z.boolean().describe('The on/off switch (desired state).'),
  saved: z.boolean(),
  isTemplate: z.boolean(),
  templateType: z.enum(['CREATE', 'UPDATE']).nullable(),
  changedConfigSinceLastStart: z.boolean(),
  executionLocationType: z.enum(['LOCALHOST', 'auto']).describe('LOCALHOST: the chosen node; auto: placed by load.'),
  nodeName: z.string().nullable(),
  comments: z.array(JobComment),
  createdBy: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  status: JobStatus,
}).meta({ id: 'Job', description: 'A relay, an encoding or a template, with what its node observes.' });

export const UpdateJobQuery = z.object({
  restart: z.enum(['true', 'false']).optional().describe('"Update & Restart": apply the change to the running job at once (needs the restart permission too).'),
});

export const RESTART_MODES = ['hard', 'soft', 'reload'] as const;
export const RestartRequest = z
  .object({ mode: z.enum(RESTART_MODES).describe('hard: kill and start; soft: graceful stop and start; reload: apply a changed configuration.') })
  .meta({ id: 'RestartRequest', description: 'Which restart to perform.' });

/** The bulk bar's actions (spec 01 §2.3, §4); each is an operation of its own, with its own permission. */
export const BULK_ACTIONS = ['start', 'stop', 'hard_restart', 'soft_restart', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
/** The path of each bulk action's operation under /api/relays/bulk/ (or /api/encodings/bulk/). */
export const BULK_ACTION_PATHS = { start: 'start', stop: 'stop', hard_restart: 'hard-restart', soft_restart: 'soft-restart', delete: 'delete' } as const satisfies Record<BulkAction, string>;

export const BulkRequest = z
  .object({
    ids: z.array(z.number().int().positive()).min(1, 'Select at least one job').max(1000, 'At most 1000 jobs at once'),
  })
  .meta({ id: 'BulkRequest', description: 'The selected jobs one bulk action acts on.' });

export const BulkResult = z
  .object({
    results: z.array(z.object({ id: z.number().int(), ok: z.boolean(), code: z.string().optional(), message: z.string().optional() })),
  })
  .meta({ id: 'BulkResult', description: 'The outcome per selected job: one refusal does not stop the others.' });

export const TEMPLATE_TYPES = ['CREATE', 'UPDATE'] as const;
export const SaveAsTemplateRequest = z
  .object({
    templateType: z.enum(TEMPLATE_TYPES).describe('CREATE a new template, or UPDATE an existing one.'),
    name: z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters').optional().describe('Name of the new template (CREATE).'),
    templateId: z.number().int().positive().optional().describe('The template to overwrite (UPDATE).'),
  })
  .superRefine((value, ctx) => {
    if (value.templateType === 'CREATE' && !value.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'Name is required' });
    if (value.templateType === 'UPDATE' && !value.templateId) ctx.addIssue({ code: 'custom', path: ['templateId'], message: 'Template is required' });
  })
  .meta({ id: 'SaveAsTemplateRequest', description: 'Save a job\'s configuration as a template.' });

export const CreateFromTemplateRequest = z
  .object({ name: z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters').describe('Name of the new job.') })
  .meta({ id: 'CreateFromTemplateRequest', description: 'Create a job from a template.' });

export const CommentCreate = z
  .object({
    type: CommentLevel,
    comment: z.string().trim().min(1, 'Comment is required').max(2000, 'Comment must be at most 2000 characters'),
  })
  .meta({ id: 'CommentCreate', description: 'A note to add to a job.' });

export const CommentParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  commentId: z.coerce.number().int().positive().max(2_147_483_647),
});

export const FeatureDefinition = z
  .object({
    name: z.string(),
    description: z.string(),
    valueType: z.enum(['none', 'string', 'number']),
    global: z.boolean().describe('Set for every job in the system settings ("Global"); a job may override its value.'),
    globalValue: z.string().nullable(),
  })
  .meta({ id: 'FeatureDefinition', description: 'A feature an admin can set on jobs.' });

export const FeatureCatalogue = z
  .object({ items: z.array(FeatureDefinition) })
  .meta({ id: 'FeatureCatalogue', description: 'The features of the admin-only features table.' });

export const Endpoints = z
  .object({
    runproxUrl: z.string().trim().min(1, 'Runprox URL is required').max(2000).url('Runprox URL must be a URL'),
    astraUrl: z.string().trim().min(1, 'DVB URL is required').max(2000).url('DVB URL must be a URL'),
  })
  .meta({ id: 'Endpoints', description: 'Integration endpoints (spec 01 §2.10): the Runprox URL and the DVB URL.' });
