import type { DataPaths } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { LoginHistoryRepository } from '../repositories/login-history.repository.ts';
import { NodesRepository } from '../repositories/nodes.repository.ts';
import { SessionsRepository } from '../repositories/sessions.repository.ts';
import { SettingsRepository } from '../repositories/settings.repository.ts';
import { TokensRepository } from '../repositories/tokens.repository.ts';
import { UsersRepository } from '../repositories/users.repository.ts';
import { AdminService } from './admin.service.ts';
import { AuthService, DEFAULT_AUTH_POLICY, type AuthPolicy } from './auth.service.ts';
import { createJobInsightServices } from './job-history.service.ts';
import { createJobServices } from './jobs.service.ts';
import { LoginHistoryService } from './login-history.service.ts';
import { createPresetsService } from './presets.service.ts';
import { createAlarmsService } from './alarms.service.ts';
import { createSettingsServices } from './settings.service.ts';
import { StreamsService } from './streams.service.ts';
import { SystemService } from './system.service.ts';
import { TokensService } from './tokens.service.ts';
import { createToolServices } from './tools.service.ts';
import { UsersService } from './users.service.ts';
import { createWatermarksService } from './watermarks.service.ts';
import { StatisticsRepository } from '../repositories/statistics.repository.ts';
import { DashboardService } from './dashboard.service.ts';
import { DiagnosticsService } from './diagnostics.service.ts';
import { StatisticsService } from './statistics.service.ts';
import { NodeSamples } from './node-samples.ts';
import { SystemSampler } from './system-sampler.ts';

export interface ServiceOptions {
  devMode: boolean;
  paths: DataPaths;
  auth: Pick<AuthPolicy, 'sessionIdleMinutes' | 'sessionMaxHours'> & Partial<AuthPolicy>;
}

/** Wire repositories into services: the one place that knows what each service takes. */
export function createServices(db: Db, events: EventBus, options: ServiceOptions) {
  const users = new UsersRepository(db);
  const sessions = new SessionsRepository(db);
  const tokens = new TokensRepository(db);
  const history = new LoginHistoryRepository(db);
  const nodes = new NodesRepository(db);
  const settings = new SettingsRepository(db);
  const auth = new AuthService(users, sessions, tokens, history, { ...DEFAULT_AUTH_POLICY, ...options.auth }, events);
  const credentialsChanged = () => auth.forgetCredentials();
  return {
    events,
    nodes,
    auth,
    users: new UsersService(users, sessions, events, credentialsChanged),
    tokens: new TokensService(tokens, events, credentialsChanged),
    loginHistory: new LoginHistoryService(history),
    admin: new AdminService(users, sessions),
    system: new SystemService(db, nodes, settings, options.devMode),
    streams: new StreamsService(options.paths.keysDir),
    jobInsights: createJobInsightServices(db, options.paths),
    ...createJobServices(db, events),
    presets: createPresetsService(db, events),
    watermarks: createWatermarksService(db, events, options.paths.watermarksDir),
    ...createToolServices(db, events, nodes),
    paths: options.paths,
    ...createOperationsServices(db, events, nodes, options.paths),
    alarms: createAlarmsService(db, options.paths),
    ...createSettingsServices(db, events, options.paths),
  };
}

/**
 * Dashboard, Diagnostic Check and Statistics (spec 03): one sampler of this machine shared by every
 * open dashboard (and by this process's node, which publishes it), and the samples the other nodes publish.
 */
function createOperationsServices(db: Db, events: EventBus, nodes: NodesRepository, paths: DataPaths) {
  const statisticsRepository = new StatisticsRepository(db);
  const sampler = new SystemSampler();
  const samples = new NodeSamples(events, sampler);
  return {
    sampler,
    samples,
    dashboard: new DashboardService(nodes, statisticsRepository, samples, paths),
    diagnostics: new DiagnosticsService(db),
    statistics: new StatisticsService(statisticsRepository),
  };
}

export type Services = ReturnType<typeof createServices>;
