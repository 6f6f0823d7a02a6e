import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { LOG_LEVEL_NAMES } from '../openapi/schemas/jobs.ts';
import type { LiveEvent } from './events/event-bus.ts';

export type LogLevel = (typeof LOG_LEVEL_NAMES)[number];

/** The "RixUI Log Settings" tab: how this API process logs. */
export interface ProcessLogSettings {
  logLevel: LogLevel;
  logTarget: 'CONSOLE' | 'FILE';
  logMaxSizeInMegaBytes: number;
  loggers: Array<{ id: number; loggerName: string; logLevel: LogLevel }>;
}

export const DEFAULT_PROCESS_LOG_SETTINGS: ProcessLogSettings = { logLevel: 'INFO', logTarget: 'CONSOLE', logMaxSizeInMegaBytes: 10, loggers: [] };

/** The settings event every API process applies: topic `settings`, type `updated`, id `rixuiLog`. */
export const PROCESS_LOG_EVENT = { topic: 'settings', type: 'updated', id: 'rixuiLog' } as const;

/**
 * Which log a LiveLogger is: the API process's ("RixUI Log Settings", rixui.log) or the node's, the
 * engine that runs the jobs ("Rixjob Log Settings", rixjob.log); each follows its own settings event.
 */
export interface LogIdentity {
  file: string;
  eventId: string;
}
export const API_LOG: LogIdentity = { file: 'rixui.log', eventId: PROCESS_LOG_EVENT.id };
export const NODE_LOG: LogIdentity = { file: 'rixjob.log', eventId: 'rixjobLog' };

const rank = (level: LogLevel) => LOG_LEVEL_NAMES.indexOf(level);

/**
 * A process's leveled logger (the API's, or the node's: see LogIdentity). Components log through named
 * lines (`logger.line('event-bus')`); the level of a name is that of the most specific logger entry
 * (`api` covers `api.http`), else the global level. Settings change live: `apply` takes effect for
 * the next line, and `follow` applies what any API process publishes on the bus. FILE writes
 * `<logsDir>/<its file>`, rotated at the max size.
 */
export class LiveLogger {
  private settings: ProcessLogSettings = DEFAULT_PROCESS_LOG_SETTINGS;

  constructor(
    private readonly sink: (line: string) => void,
    private readonly logsDir?: string,
    private readonly identity: LogIdentity = API_LOG,
  ) {}

  get current(): ProcessLogSettings {
    return this.settings;
  }

  apply(settings: ProcessLogSettings): void {
    this.settings = settings;
  }

  levelOf(name: string): LogLevel {
    let best: { loggerName: string; logLevel: LogLevel } | undefined;
    for (const logger of this.settings.loggers) {
      const covers = name === logger.loggerName || name.startsWith(`${logger.loggerName}.`);
      if (covers && (!best || logger.loggerName.length > best.loggerName.length)) best = logger;
    }
    return best?.logLevel ?? this.settings.logLevel;
  }

  enabled(name: string, level: LogLevel): boolean {
    return rank(level) >= rank(this.levelOf(name));
  }

  write(name: string, level: LogLevel, message: string): void {
    if (!this.enabled(name, level)) return;
    if (this.settings.logTarget === 'FILE' && this.logsDir) {
      try {
        this.toFile(`${new Date().toISOString()} ${level} [${name}] ${message}\n`);
        return;
      } catch {
        // The file cannot be written: keep the line on the console rather than lose it.
      }
    }
    this.sink(message);
  }

  /**
   * A plain `(line) => void` for the components that take one. Their lines carry no level:
   * one that reports a failure counts as WARNING, the rest as INFO.
   */
  line(name: string): (line: string) => void {
    return (message) => this.write(name, /\b(fail(ed|s)?|error|refused|cannot)\b|\bE(CONN[A-Z]+|TIMEDOUT|NOTFOUND|HOSTUNREACH)\b/i.test(message) ? 'WARNING' : 'INFO', message);
  }

  /** Apply the settings every time an API process publishes them. Returns the unsubscribe. */
  follow(bus: { subscribe(listener: (event: LiveEvent) => void): () => void }): () => void {
    return bus.subscribe((event) => {
      if (event.topic === PROCESS_LOG_EVENT.topic && event.type === PROCESS_LOG_EVENT.type && event.id === this.identity.eventId && event.data) {
        this.apply(event.data as ProcessLogSettings);
      }
    });
  }

  private toFile(text: string): void {
    const dir = this.logsDir as string;
    const file = path.join(dir, this.identity.file);
    mkdirSync(dir, { recursive: true });
    let size = 0;
    try {
      size = statSync(file).size;
    } catch {
      size = 0;
    }
    if (size + text.length > this.settings.logMaxSizeInMegaBytes * 1024 * 1024) renameSync(file, `${file}.1`);
    appendFileSync(file, text);
  }
}
