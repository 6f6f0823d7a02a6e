import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { UserPermissionMap } from '../../openapi/permissions.ts';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  role: string;
  email: string | null;
  phone_number: string | null;
  enabled: Generated<boolean>;
  permissions: ColumnType<UserPermissionMap, string, string>;
  relays_limit: Generated<number>;
  encodings_limit: Generated<number>;
  timeshift_players_limit: Generated<number>;
  timeshift_recorders_limit: Generated<number>;
  password_changed_at: Timestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ip: string;
  user_agent: string;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  prefix: string;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface LoginHistoryTable {
  id: ColumnType<string, never, never>;
  created_at: CreatedAt;
  username: string;
  user_id: number | null;
  ip: string;
  location: string | null;
  user_agent: string;
  success: boolean;
  reason: string | null;
}

export interface SystemSettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
}

export interface NodesTable {
  id: Generated<number>;
  node_id: string;
  name: string;
  ip: string;
  active: Generated<boolean>;
  version: string;
  heartbeat_at: Timestamp;
  created_at: CreatedAt;
}

export interface AudioPresetsTable {
  id: Generated<number>;
  name: string;
  audio_codec: string;
  audio_bitrate: number;
  channels: number | null;
  sample_rate: number;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface VideoPresetsTable {
  id: Generated<number>;
  name: string;
  video_codec: string;
  gpu: Generated<boolean>;
  video_bitrate: number;
  audio_preset_id: number;
  advanced_option: string | null;
  video_codec_parameters: ColumnType<Record<string, string | number | boolean>, string, string>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface WatermarksTable {
  id: Generated<number>;
  name: string;
  file: string;
  alpha: number;
  scale_percent: number;
  image_width: number;
  image_height: number;
  scaled_width: number;
  scaled_height: number;
  resolution: ColumnType<{ value: string; name?: string; width?: number; height?: number }, string, string>;
  x: number;
  y: number;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface JobsTable {
  id: Generated<number>;
  kind: 'relay' | 'encoding';
  name: string;
  video_type: string;
  is_template: Generated<boolean>;
  template_type: string | null;
  active: Generated<boolean>;
  restart_seq: Generated<number>;
  restart_mode: string | null;
  desired_actor: ColumnType<unknown, string | null, string | null> | null;
  saved: Generated<boolean>;
  node_id: number | null;
  assigned_node_id: number | null;
  input_type: string;
  output_types: string[];
  preset_id: number | null;
  watermark_id: number | null;
  config: ColumnType<unknown, string, string>;
  config_version: Generated<number>;
  /** Computed by Postgres from config (migration 20261123T100000-jobs-list): what a list row shows of it. */
  list_summary: ColumnType<unknown, never, never>;
  created_by: number | null;
  created_by_name: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface JobStatusTable {
  job_id: number;
  node_id: number | null;
  state: string;
  pid: number | null;
  restarts: Generated<number>;
  cpu_percent: Generated<number>;
  rss_bytes: Generated<number>;
  /** null: not measured (engine/stats/job-io.ts). */
  input_bps: number | null;
  output_bps: number | null;
  active_input: string | null;
  started_at: Timestamp | null;
  last_reset_at: Timestamp | null;
  reason: string | null;
  reason_detail: string | null;
  applied_restart_seq: Generated<number>;
  applied_config_version: Generated<number>;
  srt_stats: ColumnType<unknown, string | null, string | null> | null;
  /** Each input's and each enabled output's bitrate: `{ inputs: [{ index, bps }], outputs: [{ index, bps }] }`, bps null when not measured. */
  io_rates: ColumnType<unknown, string | null, string | null> | null;
  updated_at: Timestamp;
}

export interface JobEventsTable {
  id: ColumnType<number, never, never>;
  job_id: number;
  at: CreatedAt;
  type: string;
  reason: string | null;
  detail: string | null;
  actor_kind: string;
  actor_id: number | null;
  actor_name: string | null;
  node_id: number | null;
}

export interface JobBatchEntriesTable {
  id: ColumnType<number, never, never>;
  job_id: number;
  source_file: string;
  status: string;
  entry: ColumnType<unknown, string, string>;
  created_at: CreatedAt;
}

export interface JobCommentsTable {
  id: Generated<number>;
  job_id: number;
  type: string;
  comment: string;
  created_by: string | null;
  created_at: CreatedAt;
}

export interface TimersTable {
  id: Generated<number>;
  name: string;
  action: string;
  type: string;
  hour: number | null;
  minute: number;
  days_of_week: Generated<string[]>;
  date: string | null;
  time_zone: string;
  task_type: 'relay' | 'encoding';
  job_ids: Generated<number[]>;
  all_jobs: boolean;
  actived: Generated<boolean>;
  last_fired_at: Timestamp | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface TimerFiringsTable {
  id: ColumnType<number, never, never>;
  timer_id: number;
  due_at: ColumnType<Date, Date | string, never>;
  fired_at: CreatedAt;
  fired_by: string;
  action: string;
  job_ids: Generated<number[]>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  login_history: LoginHistoryTable;
  system_settings: SystemSettingsTable;
  nodes: NodesTable;
  audio_presets: AudioPresetsTable;
  video_presets: VideoPresetsTable;
  watermarks: WatermarksTable;
  jobs: JobsTable;
  job_status: JobStatusTable;
  job_events: JobEventsTable;
  job_batch_entries: JobBatchEntriesTable;
  job_comments: JobCommentsTable;
  timers: TimersTable;
  timer_firings: TimerFiringsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserRowUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type LoginHistoryRow = Selectable<LoginHistoryTable>;
export type NodeRow = Selectable<NodesTable>;
export type JobRow = Selectable<JobsTable>;
export type JobStatusRow = Selectable<JobStatusTable>;
export type VideoPresetRow = Selectable<VideoPresetsTable>;
export type AudioPresetRow = Selectable<AudioPresetsTable>;
export type WatermarkRow = Selectable<WatermarksTable>;
