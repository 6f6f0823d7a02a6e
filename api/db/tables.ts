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

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  login_history: LoginHistoryTable;
  system_settings: SystemSettingsTable;
  nodes: NodesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserRowUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ApiTokenRow = Selectable<ApiTokensTable>;
export type LoginHistoryRow = Selectable<LoginHistoryTable>;
export type NodeRow = Selectable<NodesTable>;
