import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import type { OperationDef } from '../../openapi/operation.ts';
import { can, type ClientInfo, type Principal } from '../auth/principal.ts';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError, type FieldIssue } from '../errors.ts';
import { OperationTable } from './operation-table.ts';

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

/** The result as JSON, written as it is (no content negotiation, no ETag: what res.send would add is not needed here). */
function sendJson(res: Response, status: number, result: unknown): void {
  res.statusCode = status;
  if (status === 204 || status === 304) return void res.end();
  const body = jsonBody(result);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.end(body);
}

function successStatus(op: OperationDef): number {
  return Number(Object.keys(op.responses).find((status) => Number(status) < 300) ?? 200);
}

interface Bound {
  op: OperationDef;
  handler: Implementation['handler'];
  status: number;
}

/** What comes before an operation: the JSON body, the cross-site check and the caller, each may refuse. */
export interface OperationGate {
  /** Parse a JSON body into req.body (only called for a request that carries one). */
  readBody(req: Request, res: Response): Promise<void>;
  /** Throws when the request may not go on (a cross-site write). */
  refuse(req: Request): void;
  /** The caller, into res.locals.principal. */
  authenticate(req: Request, res: Response): Promise<void>;
}

/**
 * The API as one request handler: every request under /api gets its body read, the cross-site
 * check and its caller, then its operation from the table (404 when none), which is authorized,
 * has its params, query and body validated with the contract's zod schemas (400 with every issue
 * and its field path), runs, and has its result sent. Other paths go on to the next handler.
 */
export function operationsHandler(operations: readonly OperationDef[], implementations: readonly Implementation[], gate: OperationGate) {
  const byId = new Map(implementations.map((impl) => [impl.op.operationId, impl]));
  const missing = operations.filter((op) => !byId.has(op.operationId)).map((op) => op.operationId);
  if (missing.length) throw new Error(`operations without an implementation: ${missing.join(', ')}`);
  const table = new OperationTable<Bound>(operations.map((op) => ({ op, handler: (byId.get(op.operationId) as Implementation).handler, status: successStatus(op) })));

  async function serve(req: Request, res: Response, path: string): Promise<void> {
    if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) await gate.readBody(req, res);
    gate.refuse(req);
    await gate.authenticate(req, res);
    const found = table.find(req.method, path);
    if (!found) {
      const methods = req.method === 'OPTIONS' ? table.methodsAt(path) : [];
      if (methods.length) return answerOptions(res, methods);
      throw new NotFoundError(`${req.method} ${req.originalUrl}`);
    }
    const { op, handler, status } = found.entry;
    req.params = found.params;
    const principal = res.locals.principal as Principal | undefined;
    authorize(op, principal);
    const issues: FieldIssue[] = [];
    const params = parse(op.params, found.params, 'params', issues);
    const query = parse(op.query, req.query, 'query', issues);
    const body = parse(op.body, req.body, 'body', issues);
    if (issues.length) throw new ValidationError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
    const input = {
      params,
      query,
      body,
      principal: principal as Principal,
      // Read only by the operations that ask (sign-in, sessions): resolving the address behind a proxy is work.
      get client() {
        return res.locals.client as ClientInfo;
      },
      req,
      res,
    };
    const result = await handler(input as OperationInput<OperationDef>);
    if (!res.headersSent && !res.writableEnded) sendJson(res, status, result);
  }

  return (req: Request, res: Response, next: NextFunction): void => {
    const url = req.url;
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    if (path !== '/api' && !path.startsWith('/api/')) return next();
    serve(req, res, path).catch(next);
  };
}

/** OPTIONS on a path with operations: the methods it answers, as Express's router answers it. */
function answerOptions(res: Response, methods: string[]): void {
  res.setHeader('Allow', methods.join(', '));
  res.status(200).type('text/plain').send(methods.join(', '));
}
