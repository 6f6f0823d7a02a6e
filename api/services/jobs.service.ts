import { JOB_KIND_PREFIX } from '../../openapi/permissions.ts';
import type { JobInputValue } from '../../openapi/schemas/jobs.ts';
import { can, type Principal } from '../auth/principal.ts';
import type { JobRow } from '../db/tables.ts';
import { ConflictError, ForbiddenError } from '../errors.ts';
import type { Db } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { JobsRepository, type JobKindName, type JobListFilter } from '../repositories/jobs.repository.ts';
import { SettingsRepository } from '../repositories/settings.repository.ts';
import { JobActionsService } from './job-actions.service.ts';
import { JobCommentsService } from './job-comments.service.ts';
import { JobSettingsService } from './job-settings.service.ts';
import { configOf, jobOf, summaryOf, withoutAlarmSwitch, type JobDto } from './job-dto.ts';
import { JobTemplatesService } from './job-templates.service.ts';
import {
  actorOf,
  alarmedFor,
  assertMayWrite,
  assertReferencesExist,
  checkJobWrite,
  columnsOf,
  configFor,
  jobNotFound,
  KIND_LABEL,
  sameJson,
  templateNotFound,
  type JobListQueryValue,
  type JobWriteValue,
} from './job-write-rules.ts';

/** Spec 01 §6: ALARMS_VIEW or ALARMS_EDIT shows the job alarm switch; others read jobs without it. */
const seesAlarmSwitch = (viewer: Principal) => can(viewer, 'ALARMS_VIEW', 'ALARMS_EDIT');

/** Topics and event types that can change a job's switch or observed state (stats and batch entries do not). */
const JOB_TOPICS = new Set(['relays', 'encodings', 'jobs']);
const UNCHANGING_TYPES = new Set(['stats', 'batch']);
/** The longest a count or a page's choice of jobs is served from memory, should a change come without an event. */
const CACHE_TTL_MS = 1000;
/** Distinct lists kept at most (consoles ask for few; a flood of different ones starts over). */
const CACHE_MAX_KEYS = 500;
/** How long a whole page is answered from memory before it is read again: its sampled figures are that much older. */
const PAGE_TTL_MS = 500;
/** A page past PAGE_TTL_MS is still answered while its next reading is made, up to this age (then callers wait for it). */
const PAGE_STALE_MS = 1_500;

/**
 * What the lists compute over many jobs: the counts (the footer's Total, Active, Failed, Waiting,
 * and how many match a search) and which jobs make up a page. Kept in memory and dropped at every
 * change of a job, its switch or its observed state (the API's own writes, and the events the
 * nodes publish after writing a status), or after a second; concurrent readers share one query.
 * Whole pages are kept only PAGE_TTL_MS: their rows show the sampled figures.
 */
class ListCache {
  private readonly entries = new Map<string, { at: number; ttlMs: number; value: Promise<unknown>; settled?: boolean; refreshing?: boolean }>();

  constructor(events: EventBus) {
    events.subscribe((event) => {
      if (JOB_TOPICS.has(event.topic) && !UNCHANGING_TYPES.has(event.type)) this.clear();
    });
  }

  peek<T>(key: string): Promise<T> | undefined {
    const cached = this.entries.get(key);
    return cached && Date.now() - cached.at < cached.ttlMs ? (cached.value as Promise<T>) : undefined;
  }

  put<T>(key: string, value: Promise<T>, ttlMs = CACHE_TTL_MS): Promise<T> {
    if (this.entries.size >= CACHE_MAX_KEYS) this.entries.clear();
    const entry = { at: Date.now(), ttlMs, value };
    this.entries.set(key, entry);
    value.catch(() => this.entries.get(key) === entry && this.entries.delete(key));
    return value;
  }

  get<T>(key: string, load: () => Promise<T>, ttlMs = CACHE_TTL_MS): Promise<T> {
    return this.peek<T>(key) ?? this.put(key, load(), ttlMs);
  }

  /**
   * Like `get`, but an entry past its time and younger than `staleMs` is answered as it is while
   * one reading replaces it in the background: under load, no caller waits for the reading that
   * comes every `ttlMs` (which put every such wait in the slowest percentile). An entry dropped by
   * a change (clear) is never answered stale: the next caller waits for the new reading.
   */
  getRefreshing<T>(key: string, load: () => Promise<T>, ttlMs: number, staleMs: number): Promise<T> {
    const entry = this.entries.get(key);
    const age = entry ? Date.now() - entry.at : Number.POSITIVE_INFINITY;
    if (entry && age < ttlMs) return entry.value as Promise<T>;
    if (!entry || !entry.settled || age >= staleMs) {
      const value = this.put(key, load(), ttlMs);
      const fresh = this.entries.get(key);
      void value.then(() => fresh && (fresh.settled = true), () => undefined);
      return value;
    }
    if (!entry.refreshing) {
      entry.refreshing = true;
      load().then(
        (loaded) => {
          if (this.entries.get(key) !== entry) return; // dropped by a change meanwhile: its reading may be older than the change
          this.entries.set(key, { at: Date.now(), ttlMs, value: Promise.resolve(loaded), settled: true });
        },
        () => {
          entry.refreshing = false;
        },
      );
    }
    return entry.value as Promise<T>;
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * Relays and encodings (and, with `templates`, their templates): list, read, create, update and
 * delete, with the rules of spec 01 §5 and §6. Every change of desired state is published on the
 * kind's topic (`relays`, `encodings`): that wakes the node reconcilers and the consoles alike.
 */
export class JobsService {
  private readonly cache: ListCache;
  /** Each page handed out, as readers without ALARMS_VIEW see it. */
  private readonly withoutAlarms = new WeakMap<object, object>();

  constructor(
    private readonly jobs: JobsRepository,
    private readonly events: EventBus,
  ) {
    this.cache = new ListCache(events);
  }

  /**
   * A page of a list. The same page asked again within PAGE_TTL_MS is answered from memory (a
   * console polling, many operators on one screen, a script), and up to PAGE_STALE_MS while its
   * next reading is made: a change of any job of the kind still shows at once, and only the
   * sampled figures (CPU, RSS, bitrates) may be that much older.
   */
  async list(viewer: Principal, kind: JobKindName, query: JobListQueryValue, templates = false) {
    const page = await this.cache.getRefreshing(`${kind}:${templates}:response:${JSON.stringify(query)}`, () => this.readList(kind, query, templates), PAGE_TTL_MS, PAGE_STALE_MS);
    if (seesAlarmSwitch(viewer)) return page;
    // The same page without the alarm switch, made once per page (and so serialized once too).
    let hidden = this.withoutAlarms.get(page);
    if (!hidden) this.withoutAlarms.set(page, (hidden = Object.freeze({ ...page, items: page.items.map(withoutAlarmSwitch) })));
    return hidden as typeof page;
  }

  private async readList(kind: JobKindName, query: JobListQueryValue, templates: boolean) {
    const filter: JobListFilter = {
      search: query.search?.trim() || undefined,
      videoType: query.type,
      status: query.status,
      nodes: query.node,
      presets: query.preset,
      outputTypes: query.outputTypes,
      inputTypes: query.inputTypes,
      sort: query.sort,
      order: query.order,
      offset: (query.page - 1) * query.size,
      limit: query.size,
    };
    const { sort: _sort, order: _order, offset: _offset, limit: _limit, ...matchingKey } = filter;
    const list = `${kind}:${templates}`;
    const [rows, counts, matching] = await Promise.all([
      this.pageRows(kind, templates, filter),
      this.cache.get(list, () => this.jobs.counts(kind, templates)),
      this.cache.get(`${list}:matching:${JSON.stringify(matchingKey)}`, () => this.jobs.countMatching(kind, templates, filter)),
    ]);
    // Frozen: the same page is handed out until PAGE_TTL_MS, and serialized once (api/http/operations.ts).
    return Object.freeze({ items: rows.map(summaryOf), total: matching ?? counts.total, page: query.page, size: query.size, counts });
  }

  /** The rows of a page: chosen by the search, filters and sort (or as chosen a moment ago), read anew. */
  private async pageRows(kind: JobKindName, templates: boolean, filter: JobListFilter) {
    const key = `${kind}:${templates}:page:${JSON.stringify(filter)}`;
    const ids = this.cache.peek<number[]>(key);
    if (ids) return this.jobs.page(kind, templates, filter, await ids);
    const rows = this.jobs.page(kind, templates, filter);
    this.cache.put(key, rows.then((page) => page.map((row) => row.id)));
    return rows;
  }

  /** A job or template of the kind, with its status and comments, as `viewer` may see it. */
  async get(viewer: Principal, kind: JobKindName, id: number, templates?: boolean): Promise<JobDto> {
    const detail = await this.jobs.findDetail(kind, id);
    if (!detail || (templates !== undefined && detail.job.is_template !== templates)) throw templates ? templateNotFound(kind, id) : jobNotFound(kind, id);
    const job = jobOf(detail);
    return seesAlarmSwitch(viewer) ? job : withoutAlarmSwitch(job);
  }

  async create(principal: Principal, kind: JobKindName, input: JobWriteValue, options: { template?: boolean } = {}): Promise<JobDto> {
    checkJobWrite(kind, input);
    const config = configFor(kind, input, alarmedFor(principal, input.alarmed, undefined));
    assertMayWrite(principal, kind, config);
    const row = await this.insert(principal, kind, config, { template: options.template ?? false, saved: input.saved });
    return this.get(principal, kind, row.id);
  }

  /**
   * Store a new job or template. A job counts against its creator's limit (relaysLimit or
   * encodingsLimit, 0 = none), checked and inserted under one lock so two creates cannot both pass.
   */
  async insert(principal: Principal, kind: JobKindName, config: JobInputValue, options: { template: boolean; saved?: boolean; templateType?: 'CREATE' | 'UPDATE' }): Promise<JobRow> {
    const row = await this.jobs.transaction(async (jobs) => {
      await assertReferencesExist(jobs, config);
      if (!options.template) {
        await jobs.lockUserCreates(principal.userId, kind);
        const limit = await jobs.userLimit(principal.userId, kind);
        if (limit > 0 && (await jobs.countOwn(principal.userId, kind)) >= limit) {
          const field = kind === 'relay' ? 'relaysLimit' : 'encodingsLimit';
          throw new ConflictError(`${field}: you have reached your limit of ${limit} ${kind}s.`, 'LIMIT_REACHED');
        }
      }
      return jobs.insert({
        ...columnsOf(config),
        kind,
        is_template: options.template,
        template_type: options.template ? (options.templateType ?? 'CREATE') : null,
        saved: options.saved ?? false,
        created_by: principal.userId,
        created_by_name: principal.username,
        desired_actor: JSON.stringify(actorOf(principal)),
      });
    });
    await this.publish(kind, 'created', row.id);
    return row;
  }

  /**
   * Save a new configuration. A running job keeps running with the old one and shows
   * changedConfigSinceLastStart, unless `restart` ("Update & Restart") asks its node for a reload.
   * A saved (locked) job refuses every change but unlocking it.
   */
  async update(principal: Principal, kind: JobKindName, id: number, input: JobWriteValue, options: { restart?: boolean; templates?: boolean } = {}): Promise<JobDto> {
    const prefix = JOB_KIND_PREFIX[kind];
    if (options.restart && !can(principal, `${prefix}_EDIT`, `${prefix}_VIEW_RESTART`)) {
      throw new ForbiddenError(`restart: Update & Restart needs ${prefix}_EDIT or ${prefix}_VIEW_RESTART.`);
    }
    checkJobWrite(kind, input);
    const restarted = await this.jobs.transaction(async (jobs) => {
      const current = await jobs.findForUpdate(kind, id);
      if (!current || (options.templates !== undefined && current.is_template !== options.templates)) throw options.templates ? templateNotFound(kind, id) : jobNotFound(kind, id);
      const stored = configOf(current);
      const config = configFor(kind, input, alarmedFor(principal, input.alarmed, stored.alarmed));
      const changed = !sameJson(config, { ...stored, name: current.name, node: current.node_id });
      if (current.saved && changed) {
        throw new ConflictError(`${KIND_LABEL[kind]} ${current.name} is locked: switch saved off to change it.`, 'LOCKED');
      }
      const restart = options.restart && current.active && !current.is_template ? { mode: 'reload', actor: actorOf(principal) } : undefined;
      if (changed) {
        assertMayWrite(principal, kind, config, stored);
        await assertReferencesExist(jobs, config);
        await jobs.updateConfig(id, { ...columnsOf(config), saved: input.saved }, restart);
      } else {
        if (current.saved !== input.saved) await jobs.setSaved(id, input.saved);
        if (restart) await jobs.requestRestart(kind, id, restart.mode, restart.actor);
      }
      return restart !== undefined;
    });
    await this.publish(kind, 'updated', id, restarted ? { restart: 'reload' } : undefined);
    return this.get(principal, kind, id);
  }

  /** Delete a job (its node stops it: it is no longer wanted) or a template. */
  async delete(kind: JobKindName, id: number, options: { templates?: boolean } = {}): Promise<void> {
    if (!(await this.jobs.delete(kind, id, options.templates))) throw options.templates ? templateNotFound(kind, id) : jobNotFound(kind, id);
    await this.publish(kind, 'deleted', id);
  }

  /** Tell the node reconcilers (woken by any type but status, stats and batch) and the consoles. */
  publish(kind: JobKindName, type: string, id: number, data?: unknown): Promise<void> {
    // The writer sees its change in the counts at once; other processes when the event reaches them.
    this.cache.clear();
    return this.events.publish({ topic: `${kind}s`, type, id, ...(data === undefined ? {} : { data }) });
  }
}

/** The services of the jobs API, wired once (createServices spreads them). */
export function createJobServices(db: Db, events: EventBus) {
  const repository = new JobsRepository(db);
  const jobs = new JobsService(repository, events);
  return {
    jobs,
    jobActions: new JobActionsService(repository, jobs),
    jobTemplates: new JobTemplatesService(repository, jobs),
    jobComments: new JobCommentsService(repository, jobs),
    jobSettings: new JobSettingsService(new SettingsRepository(db)),
  };
}
