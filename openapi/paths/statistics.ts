import { defineOperation } from '../operation.ts';
import { StatisticsSummary } from '../schemas/statistics.ts';

export const statisticsOperations = {
  getStatisticsSummary: defineOperation({
    operationId: 'getStatisticsSummary',
    method: 'get',
    path: '/api/statistics',
    tag: 'statistics',
    summary: 'The jobs with statistics on, each with its last 24 hours per hour (the cards of /my/statistics)',
    description: 'Events, uptimes and downtimes of one job, and their CSV downloads, are the job operations GET /api/{kind}s/{id}/events, /uptimes, /downtimes and their /download.',
    permission: { anyOf: ['STATISTICS_VIEW'] },
    responses: { 200: { description: 'The jobs by name.', schema: StatisticsSummary } },
  }),
};
