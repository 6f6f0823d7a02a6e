import { alarmOperations } from '../../openapi/paths/alarms.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

const { listAlarmCards, listSentAlarms, deleteSentAlarms, getAlarmSettings, updateAlarmSettings, getSystemAlarms, updateSystemAlarms, getJobAlarmSettings, updateJobAlarmSettings, sendTestEmail } = alarmOperations;

export function alarmRoutes({ alarms }: Services) {
  return [
    implement(listAlarmCards, async ({ query }) => alarms.cards(query)),
    implement(listSentAlarms, async ({ query }) => alarms.history(query)),
    implement(deleteSentAlarms, async () => alarms.deleteHistory()),
    implement(getAlarmSettings, async () => alarms.getSettings()),
    implement(updateAlarmSettings, async ({ body }) => alarms.updateSettings(body)),
    implement(getSystemAlarms, async () => alarms.systemAlarms()),
    implement(updateSystemAlarms, async ({ body }) => alarms.updateSystemAlarms(body)),
    implement(getJobAlarmSettings, async ({ params }) => alarms.jobSettings(params.id)),
    implement(updateJobAlarmSettings, async ({ params, body }) => alarms.updateJobSettings(params.id, body)),
    implement(sendTestEmail, async ({ body }) => alarms.sendTestEmail(body.address)),
  ];
}
