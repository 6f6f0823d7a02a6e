import type { OperationDef } from '../operation.ts';
import { alarmOperations } from './alarms.ts';
import { authOperations } from './auth.ts';
import { jobInsightOperations } from './job-insights.ts';
import { allJobOperations } from './jobs.ts';
import { presetOperations } from './presets.ts';
import { streamOperations } from './streams.ts';
import { systemOperations } from './system.ts';
import { timerOperations } from './timers.ts';
import { toolOperations } from './tools.ts';
import { userOperations } from './users.ts';
import { watermarkOperations } from './watermarks.ts';
import { dashboardOperations } from './dashboard.ts';
import { diagnosticsOperations } from './diagnostics.ts';
import { statisticsOperations } from './statistics.ts';
import { settingsOperations } from './settings.ts';

/** Every operation of the API. Adding an area is one import and one entry here. */
export const operations: readonly OperationDef[] = [systemOperations, authOperations, userOperations, streamOperations, allJobOperations, jobInsightOperations, presetOperations, watermarkOperations, toolOperations, timerOperations, dashboardOperations, diagnosticsOperations, statisticsOperations, alarmOperations, settingsOperations].flatMap((area) => Object.values(area));
