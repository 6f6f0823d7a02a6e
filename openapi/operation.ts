import type { z } from 'zod';

/**
 * Who may call an operation. Every operation declares one; the API's permission middleware
 * enforces it and a test walks openapi.json to prove none is missing.
 * - `public`: no session needed (sign-in, the contract itself).
 * - `authenticated`: any signed-in user (their own profile, tokens, sign-out).
 * - `admin`: the ADMIN role only (spec: "Admin-only").
 * - `{ anyOf }`: at least one of these permission names (ADMIN holds them all).
 */
export type PermissionRule = 'public' | 'authenticated' | 'admin' | { anyOf: readonly string[] };

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseDef {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
}

export interface OperationDef {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI template, e.g. `/api/users/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  permission: PermissionRule;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Request body content type when not JSON. */
  bodyContentType?: string;
  responses: Record<number, ResponseDef>;
}

/** Identity helper that keeps the literal types of a definition. */
export function defineOperation<const T extends OperationDef>(def: T): T {
  return def;
}

export function describePermission(rule: PermissionRule): string {
  if (rule === 'public') return 'No sign-in needed.';
  if (rule === 'authenticated') return 'Any signed-in user.';
  if (rule === 'admin') return 'ADMIN role only.';
  return `Requires one of: ${rule.anyOf.join(', ')}.`;
}
