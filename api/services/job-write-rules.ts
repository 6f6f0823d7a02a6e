import type { z } from 'zod';
import { JOB_KIND_PREFIX } from '../../openapi/permissions.ts';
import type { JobListQuery, JobWrite } from '../../openapi/schemas/job-api.ts';
import { checkJobRules, type JobInputValue } from '../../openapi/schemas/jobs.ts';
import { can, type Principal } from '../auth/principal.ts';
import { AppError, ForbiddenError, ValidationError, type FieldIssue } from '../errors.ts';
import type { Actor, JobColumns, JobKindName, JobsRepository } from '../repositories/jobs.repository.ts';
import { JOB_FEATURES } from './job-settings.service.ts';

/**
 * The rules a relay, encoding or template passes before it is stored: the cross-field rules of
 * spec 01 §5 for its kind, the features of the catalogue, what the writer may change (features:
 * ADMIN; new outputs: the full EDIT; the alarm switch is taken only from ALARMS_EDIT, see
 * alarmedFor), and the references it names.
 */

export type JobWriteValue = z.output<typeof JobWrite>;

export type JobListQueryValue = z.output<typeof JobListQuery>;

export const KIND_LABEL = { relay: 'Relay', encoding: 'Encoding' } as const;

export const actorOf = (principal: Principal): Actor => ({ kind: 'user', userId: principal.userId, username: principal.username });

export const jobNotFound = (kind: JobKindName, id: number) => new AppError(404, 'NOT_FOUND', `No ${kind} with id ${id}`);
export const templateNotFound = (kind: JobKindName, id: number) => new AppError(404, 'NOT_FOUND', `No ${kind} template with id ${id}`);

function fail(issues: FieldIssue[]): never {
  throw new ValidationError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
}

/** The spec's rules for the kind and the feature catalogue: 400 naming each field (`body.input.uri`). */
export function checkJobWrite(kind: JobKindName, input: JobWriteValue): void {
  const issues: FieldIssue[] = [];
  const ctx = {
    value: input,
    issues: [],
    addIssue(issue: { path?: PropertyKey[]; message?: string }) {
      issues.push({ path: ['body', ...(issue.path ?? []).map(String)].join('.'), message: issue.message ?? 'is invalid', code: 'custom' });
    },
  } as unknown as z.RefinementCtx;
  checkJobRules(input, kind, ctx);
  input.features.forEach((feature, i) => {
    const known = JOB_FEATURES.find((f) => f.name === feature.name);
    if (!known) issues.push({ path: `body.features.${i}.name`, message: `Unknown feature ${feature.name} (known: ${JOB_FEATURES.map((f) => f.name).join(', ')})` });
    else if (known.valueType === 'number' && feature.value !== undefined && feature.value !== '' && !Number.isFinite(Number(feature.value))) {
      issues.push({ path: `body.features.${i}.value`, message: `${feature.name} takes a number` });
    }
  });
  const names = input.features.map((f) => f.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice) issues.push({ path: 'body.features', message: `Feature ${twice} is listed twice` });
  if (issues.length) fail(issues);
}

/** Deep equality of JSON values, whatever the order of their keys (jsonb reorders them). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === undefined ? b === undefined : false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => sameJson(item, (b as unknown[])[i]));
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * What the writer may change, against the stored job (none: a new one). ADMIN holds every
 * permission, so only the features rule names the role.
 */
export function assertMayWrite(principal: Principal, kind: JobKindName, input: JobInputValue, current?: JobInputValue): void {
  const prefix = JOB_KIND_PREFIX[kind];
  if (principal.role !== 'ADMIN' && !sameJson(input.features, current?.features ?? [])) {
    throw new ForbiddenError(`features: only an ADMIN may change the features of a ${kind}.`);
  }
  if (input.outputs.length > (current?.outputs.length ?? 0) && !can(principal, `${prefix}_EDIT`)) {
    throw new ForbiddenError(`outputs: adding outputs needs ${prefix}_EDIT.`);
  }
}

/** The presets, watermark and node a job names must exist: 400 naming the field. */
export async function assertReferencesExist(jobs: JobsRepository, config: JobInputValue): Promise<void> {
  const missing = await jobs.missingReferences({ preset: config.preset, watermark: config.watermark, node: config.node });
  if (missing.length === 0) return;
  const label = { preset: 'Video preset', watermark: 'Watermark', node: 'Node' } as const;
  fail(missing.map((field) => ({ path: `body.${field}`, message: `${label[field]} ${config[field]} does not exist` })));
}

/**
 * The alarm switch a write stores (spec 01 §6: only ALARMS_EDIT changes it): what a holder of
 * ALARMS_EDIT sends; otherwise, or when it is absent (a reader without ALARMS_VIEW never sees it),
 * the stored value (false for a new job). A save by someone else never resets it.
 */
export function alarmedFor(principal: Principal, sent: boolean | undefined, stored: boolean | undefined): boolean {
  return sent !== undefined && can(principal, 'ALARMS_EDIT') ? sent : (stored ?? false);
}

/** The configuration stored for a write, with the alarm switch `alarmed`: encoding-only references are dropped for relays. */
export function configFor(kind: JobKindName, input: JobWriteValue, alarmed: boolean): JobInputValue {
  const { saved: _saved, ...rest } = input;
  const config: JobInputValue = { ...rest, alarmed };
  return kind === 'relay' ? { ...config, preset: null, watermark: null } : config;
}

/** The list columns denormalised from a configuration (filters read them), and the configuration itself. */
export function columnsOf(config: JobInputValue): JobColumns {
  return {
    name: config.name,
    video_type: config.videoType,
    node_id: config.node,
    input_type: config.input.type,
    output_types: config.outputs.filter((o) => !o.disabled).map((o) => o.type),
    preset_id: config.preset,
    watermark_id: config.watermark,
    config: JSON.stringify(config),
  };
}
