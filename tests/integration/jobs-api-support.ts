import { expect } from 'vitest';
import type { Schemas } from '../../openapi/client/index.ts';
import type { UserPermissionMap } from '../../openapi/permissions.ts';
import type { TestApp } from '../support/app.ts';

/** What the jobs API tests share: bodies of relays and encodings, presets, users, typed calls. */

export type Job = Schemas['Job'];
export type JobPage = Schemas['JobPage'];
export type ErrorBody = Schemas['Error'];
export type Kind = 'relay' | 'encoding';

export const relayBody = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  input: { type: 'uri', uri: 'udp://239.0.0.1:1234' },
  outputs: [{ type: 'udp', uri: 'udp://127.0.0.1:5000' }],
  ...extra,
});

export const encodingBody = (name: string, preset: number, extra: Record<string, unknown> = {}) => ({
  name,
  input: { type: 'uri', uri: 'srt://10.0.0.1:9000' },
  outputs: [{ type: 'hls', uri: `live/${name}` }],
  preset,
  ...extra,
});

/** A video preset (with its audio preset) stored directly: the presets area owns their API. */
export async function insertPreset(app: TestApp, name: string): Promise<number> {
  const audio = await app.db.insertInto('audio_presets').values({ name: `${name} audio`, audio_codec: 'aac', audio_bitrate: 128, channels: 2, sample_rate: 48000 }).returning('id').executeTakeFirstOrThrow();
  const video = await app.db
    .insertInto('video_presets')
    .values({ name, video_codec: 'libx264', video_bitrate: 2000, audio_preset_id: audio.id, video_codec_parameters: '{}' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return video.id;
}

export async function insertNode(app: TestApp, name: string): Promise<number> {
  return (await app.services.nodes.upsert({ nodeId: `node-${name}`, name, ip: '10.0.0.9', version: 'test' })).id;
}

/** A signed-in user holding `permissions` (or the ADMIN role); returns its cookie and id. */
export async function userWith(app: TestApp, username: string, permissions: UserPermissionMap = {}, role: 'ADMIN' | 'USER' = 'USER') {
  const user = await app.createUser({ username, permissions, role });
  return { id: user.id, cookie: await app.signIn(user.username, user.password) };
}

/** A relay / encoding permission at View level with some sub-flags, or at Edit level. */
export function jobPermission(kind: Kind, level: 'EDIT' | 'VIEW', flags: Partial<Record<'viewOnOff' | 'viewRestart' | 'viewEdit' | 'viewLog' | 'viewDelete', boolean>> = {}): UserPermissionMap {
  const prefix = kind === 'relay' ? 'RELAY' : 'ENCODING';
  return { [kind]: { level: `${prefix}_${level}`, hide: false, ...flags } } as UserPermissionMap;
}

/** Calls of one user on one kind, returning status and the parsed body. */
export function client(app: TestApp, cookie: string, kind: Kind) {
  const base = `/api/${kind}s`;
  const call = async <T>(method: string, path: string, json?: unknown): Promise<{ status: number; body: T }> => {
    const response = await app.request(`${base}${path}`, { method, cookie, ...(json !== undefined ? { json } : {}) });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
  return {
    call,
    async create(body: unknown): Promise<Job> {
      const { status, body: job } = await call<Job>('POST', '', body);
      expect(status, JSON.stringify(job)).toBe(201);
      return job;
    },
    async list(query = ''): Promise<JobPage> {
      const { status, body } = await call<JobPage>('GET', query ? `?${query}` : '');
      expect(status, JSON.stringify(body)).toBe(200);
      return body;
    },
    async get(id: number): Promise<Job> {
      const { status, body } = await call<Job>('GET', `/${id}`);
      expect(status, JSON.stringify(body)).toBe(200);
      return body;
    },
  };
}

/** The body a form sends back for a stored job: its editable fields, some changed. */
export function writeOf(job: Job, changes: Record<string, unknown> = {}) {
  const {
    id: _id,
    kind: _kind,
    active: _active,
    isTemplate: _isTemplate,
    templateType: _templateType,
    changedConfigSinceLastStart: _changed,
    executionLocationType: _location,
    nodeName: _nodeName,
    comments: _comments,
    createdBy: _createdBy,
    createdAt: _createdAt,
    updatedAt: _updatedAt,
    status: _status,
    ...write
  } = job;
  return { ...write, ...changes };
}
