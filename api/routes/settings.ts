import { settingsOperations } from '../../openapi/paths/settings.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

const ops = settingsOperations;

export function settingsRoutes({ settings, streampoolServers }: Services) {
  return [
    implement(ops.getApplicationSettings, async () => settings.application()),
    implement(ops.updateApplicationSettings, async ({ body }) => settings.updateApplication(body)),
    implement(ops.getRedisSettings, async () => settings.redis()),
    implement(ops.updateRedisSettings, async ({ body }) => settings.updateRedis(body)),
    implement(ops.deleteRedisSettings, async () => settings.deleteRedis()),
    implement(ops.getLogSettings, async ({ params }) => settings.logs(params.target)),
    implement(ops.updateLogSettings, async ({ params, body }) => settings.updateLogs(params.target, body)),
    implement(ops.getFeatureSettings, async () => settings.features()),
    implement(ops.updateFeatureSettings, async ({ body }) => settings.updateFeatures(body)),
    implement(ops.listStreampoolServers, async () => streampoolServers.list()),
    implement(ops.createStreampoolServer, async ({ body }) => streampoolServers.create(body)),
    implement(ops.updateStreampoolServer, async ({ params, body }) => streampoolServers.update(params.id, body)),
    implement(ops.deleteStreampoolServer, async ({ params }) => {
      await streampoolServers.delete(params.id);
      return { ok: true as const };
    }),
  ];
}
