import { Router as createRouter, type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { OperationDef } from '../../openapi/operation.ts';
import { can, type ClientInfo, type Principal } from '../auth/principal.ts';
import { ForbiddenError, UnauthorizedError, ValidationError, type FieldIssue } from '../errors.ts';

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface OperationInput<O extends OperationDef> {
  params: Infer<O['params']>;
  query: Infer<O['query']>;
  body: Infer<O['body']>;
  /** Present for every operation that is not public. */
  principal: O['permission'] extends 'public' ? Principal | undefined : Principal;
  client: ClientInfo;
  req: Request;
  res: Response;
}

/** What a handler returns: the body (sent as JSON with the operation's success status), or nothing when it answered itself. */
export type HandlerResult = unknown;

export interface Implementation {
  op: OperationDef;
  handler: (input: OperationInput<OperationDef>) => Promise<HandlerResult>;
}

/** Bind a handler to an operation of the contract, with its inputs typed from the zod schemas. */
export function implement<O extends OperationDef>(op: O, handler: (input: OperationInput<O>) => Promise<HandlerResult>): Implementation {
  return { op, handler: handler as Implementation['handler'] };
}

function issuesOf(error: z.ZodError, where: string): FieldIssue[] {
  return error.issues.map((issue) => ({ path: [where, ...issue.path.map(String)].join('.'), message: issue.message, code: issue.code }));
}

/** Whether any string in the value holds U+0000 (no paths built: most requests have none). */
function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (value && typeof value === 'object') {
    for (const key in value) if (hasNul((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** Postgres text cannot hold U+0000: a string carrying it is refused here, not by a 500 from the database. */
function nulIssues(value: unknown, path: string, issues: FieldIssue[]): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) issues.push({ path, message: 'Must not contain the NUL character', code: 'invalid_format' });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => nulIssues(item, `${path}.${index}`, issues));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) nulIssues(item, `${path}.${key}`, issues);
  }
}

function parse<T extends z.ZodType | undefined>(schema: T, value: unknown, where: string, issues: FieldIssue[]): unknown {
  if (!schema) return undefined;
  const nul: FieldIssue[] = [];
  if (hasNul(value)) nulIssues(value, where, nul);
  if (nul.length) {
    issues.push(...nul);
    return undefined;
  }
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (result.success) return result.data;
  issues.push(...issuesOf(result.error, where));
  return undefined;
}

/** The permission check every operation passes through. */
export function authorize(op: OperationDef, principal: Principal | undefined): void {
  const rule = op.permission;
  if (rule === 'public') return;
  if (!principal) throw new UnauthorizedError();
  if (rule === 'authenticated') return;
  if (rule === 'admin') {
    if (principal.role !== 'ADMIN') throw new ForbiddenError('Only an ADMIN may do this.');
    return;
  }
  if (!can(principal, ...rule.anyOf)) throw new ForbiddenError(`You need ${rule.anyOf.join(' or ')} to do this.`);
}

/**
 * The JSON body of a response. A frozen result is one a service hands out again and again unchanged
 * (a list page answered from memory): it is serialized once, and every request after sends the bytes.
 */
const serializedOnce = new WeakMap<object, Buffer>();
function jsonBody(result: unknown): Buffer | string {
  if (result === null || typeof result !== 'object' || !Object.isFrozen(result)) return JSON.stringify(result) ?? '';
  let body = serializedOnce.get(result);
  if (!body) serializedOnce.set(result, (body = Buffer.from(JSON.stringify(result))));
  return body;
}

function expressPath(openapiPath: string): string {
  return openapiPath.replace(/\{(\w+)\}/g, ':$1');
}

function successStatus(op: OperationDef): number {
  return Number(Object.keys(op.responses).find((status) => Number(status) < 300) ?? 200);
}

/**
 * Mount the implementations on the router: authorize, validate params, query and body with the
 * contract's zod schemas (400 with every issue and its field path), call the handler, send.
 * Each area (`/api/relays`, `/api/users` ...) gets a router of its own, so a request is matched
 * against its area's operations only, not against all of them in turn. Within an area literal paths
 * are mounted before templated ones so `/users/histories` is not read as `/users/{id}`.
 */
export function mountOperations(router: Router, operations: readonly OperationDef[], implementations: readonly Implementation[]): void {
  const byId = new Map(implementations.map((impl) => [impl.op.operationId, impl]));
  const missing = operations.filter((op) => !byId.has(op.operationId)).map((op) => op.operationId);
  if (missing.length) throw new Error(`operations without an implementation: ${missing.join(', ')}`);
  const ordered = [...operations].sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  const areas = new Map<string, Router>();
  for (const op of ordered) {
    const impl = byId.get(op.operationId) as Implementation;
    const status = successStatus(op);
    const area = /^\/api\/[^/{}]+/.exec(op.path)?.[0];
    if (!area) throw new Error(`${op.operationId}: a path must start with /api/<area>, not ${op.path}`);
    let areaRouter = areas.get(area);
    if (!areaRouter) {
      areaRouter = createRouter();
      areas.set(area, areaRouter);
      router.use(area, areaRouter);
    }
    areaRouter[op.method](expressPath(op.path.slice(area.length)) || '/', async (req: Request, res: Response, next: NextFunction) => {
      try {
        const principal = res.locals.principal as Principal | undefined;
        authorize(op, principal);
        const issues: FieldIssue[] = [];
        const params = parse(op.params, req.params, 'params', issues);
        const query = parse(op.query, req.query, 'query', issues);
        const body = parse(op.body, req.body, 'body', issues);
        if (issues.length) throw new ValidationError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
        const result = await impl.handler({ params, query, body, principal: principal as Principal, client: res.locals.client as ClientInfo, req, res } as OperationInput<OperationDef>);
        if (!res.headersSent && !res.writableEnded) res.status(status).type('application/json').send(jsonBody(result));
      } catch (error) {
        next(error);
      }
    });
  }
}
