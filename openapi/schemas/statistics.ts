import { z } from 'zod';

export const StatisticsHour = z
  .object({
    from: z.number().int().describe('Start of the hour, seconds since the epoch.'),
    upPercent: z.number().describe('Share of the hour the job delivered media, 0 to 100.'),
    downPercent: z.number().describe('Share of the hour the job should have run and did not, 0 to 100.'),
  })
  .meta({ id: 'StatisticsHour', description: 'One hour of a job\'s last 24 hours.' });

export const StatisticsJob = z
  .object({
    id: z.number().int(),
    type: z.enum(['relay', 'encoding']),
    name: z.string(),
    enabled: z.boolean().describe('The job is switched on.'),
    statisticsDays: z.number().int(),
    data: z.array(StatisticsHour).describe('The last 24 hours, oldest first, one bucket per hour (the current hour last, up to now).'),
    upPercent: z.number().describe('Up share of the whole 24 hours.'),
    timeline: z
      .array(z.object({ from: z.number().int(), until: z.number().int(), state: z.enum(['up', 'down']) }))
      .describe('The uptimes and downtimes inside the 24 hours, clipped to them, oldest first.'),
  })
  .meta({ id: 'StatisticsJob', description: 'A job with statistics on, with its last 24 hours (spec 03 §3 Statistics job).' });

export const StatisticsSummary = z
  .object({ items: z.array(StatisticsJob), from: z.number().int(), until: z.number().int() })
  .meta({ id: 'StatisticsSummary', description: 'The cards of /my/statistics: every job with statistics on, by name.' });
