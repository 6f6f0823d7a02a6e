import { statisticsOperations } from '../../openapi/paths/statistics.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

export function statisticsRoutes({ statistics }: Services) {
  return [implement(statisticsOperations.getStatisticsSummary, async () => statistics.summary())];
}
