import { z } from 'zod';

export const ErrorBody = z
  .object({
    code: z.string().describe('Stable machine-readable error code, e.g. VALIDATION_FAILED, NOT_FOUND, FORBIDDEN.'),
    message: z.string().describe('Human-readable message naming the field and the rule where it applies.'),
    details: z
      .array(
        z.object({
          path: z.string().describe('Dotted path of the offending field, e.g. body.username.'),
          message: z.string().describe('The rule it broke.'),
          code: z.string().optional().describe('The zod issue code.'),
        }),
      )
      .optional()
      .describe('Per-field issues of a 400 response.'),
    requestId: z.string().optional().describe('Same as the X-Request-Id header; quote it when reporting a problem.'),
  })
  .meta({ id: 'Error', description: 'The body of every error response.' });

/** Ids are Postgres integers: a larger number names nothing and is refused as a bad request. */
export const MAX_ID = 2_147_483_647;

export const IdParams = z.object({
  id: z.coerce.number().int().positive().max(MAX_ID).describe('Numeric identifier.'),
});

export const SortOrder = z.enum(['asc', 'desc']).meta({ id: 'SortOrder', description: 'Sort direction.' });

/** The paging and search parameters shared by every list (spec: search by name or ID, items per page, paginator). */
export const ListQuery = z.object({
  search: z.string().max(200).optional().describe('Case-insensitive match on the name, or an exact ID.'),
  page: z.coerce.number().int().min(1).default(1).describe('1-based page number.'),
  size: z.coerce.number().int().min(1).max(500).default(25).describe('Items per page.'),
  order: SortOrder.default('asc'),
});

export const OkResponse = z.object({ ok: z.literal(true) }).meta({ id: 'Ok', description: 'The operation was carried out.' });

export function pageOf<T extends z.ZodType>(item: T, id: string, counts?: z.ZodObject) {
  return z
    .object({
      items: z.array(item),
      total: z.number().int().describe('Items matching the search and filters.'),
      page: z.number().int(),
      size: z.number().int(),
      ...(counts ? { counts } : {}),
    })
    .meta({ id, description: `A page of ${id.replace(/Page$/, '')} items.` });
}

export const Timestamp = z.string().describe('ISO 8601 date and time, UTC.');
