import { timerOperations } from '../../openapi/paths/timers.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

const { listTimers, getTimer, createTimer, updateTimer, setTimerActived, deleteTimer, listTimerFirings } = timerOperations;

export function timerRoutes({ timers }: Services) {
  return [
    implement(listTimers, async () => timers.list()),
    implement(getTimer, async ({ params }) => timers.get(params.id)),
    implement(createTimer, async ({ principal, body }) => timers.create(principal, body)),
    implement(updateTimer, async ({ principal, params, body }) => timers.update(principal, params.id, body)),
    implement(setTimerActived, async ({ params, body }) => timers.setActived(params.id, body.actived)),
    implement(deleteTimer, async ({ params }) => {
      await timers.delete(params.id);
      return { ok: true };
    }),
    implement(listTimerFirings, async ({ params }) => timers.firings(params.id)),
  ];
}
