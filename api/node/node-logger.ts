import type { Db } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { LiveLogger, NODE_LOG, type ProcessLogSettings } from '../logging.ts';
import { SettingsRepository } from '../repositories/settings.repository.ts';
import { storedLogSettings } from '../services/settings.service.ts';

/**
 * The node's own log, set by the Rixjob Log Settings (System settings): level, loggers, CONSOLE or
 * FILE (`<logsDir>/rixjob.log`, rotated at its max size). Applied from what is stored when the node
 * starts, and again at every change, on every node, without a restart.
 */
export async function startNodeLogger(db: Db, bus: EventBus, logsDir: string, sink: (line: string) => void): Promise<{ logger: LiveLogger; stop: () => void }> {
  const logger = new LiveLogger(sink, logsDir, NODE_LOG);
  logger.apply((await storedLogSettings(new SettingsRepository(db), 'rixjob')) as ProcessLogSettings);
  return { logger, stop: logger.follow(bus) };
}
