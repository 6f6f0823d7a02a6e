import type { OperationDef } from '../../openapi/operation.ts';

/** An operation as the table finds it, with what the request's path gave for its parameters. */
export interface Found<T> {
  entry: T;
  params: Record<string, string>;
}

interface Templated<T> {
  pattern: RegExp;
  keys: string[];
  entry: T;
}

/** A path parameter that is not valid percent-encoding: a 400, as Express answers it. */
export class MalformedParamError extends Error {
  readonly status = 400;
  constructor(value: string) {
    super(`Failed to decode param '${value}'`);
  }
}

/** `/api/relays/{id}/comments` → `/api/relays` (every operation's path starts with its area). */
function areaOf(path: string): string | undefined {
  return /^\/api\/[^/{}]+/.exec(path)?.[0];
}

/**
 * The API's operations by method and path. A literal path is one Map lookup; a templated one is
 * tried only against the operations of its area (`/api/relays`), fewest parameters first, so
 * `/users/histories` is never read as `/users/{id}`. Matching is what Express's router does for these
 * paths (a trailing slash ignored, HEAD answered by GET, parameters percent-decoded) without
 * walking a router per area and a route per operation for every request.
 */
export class OperationTable<T extends { op: OperationDef }> {
  private readonly literal = new Map<string, T>();
  private readonly templated = new Map<string, Templated<T>[]>();

  constructor(entries: readonly T[]) {
    const ordered = [...entries].sort((a, b) => paramCount(a.op.path) - paramCount(b.op.path));
    for (const entry of ordered) {
      const { method, path } = entry.op;
      const area = areaOf(path);
      if (!area) throw new Error(`${entry.op.operationId}: a path must start with /api/<area>, not ${path}`);
      const verb = method.toUpperCase();
      if (!path.includes('{')) {
        this.literal.set(`${verb} ${path}`, entry);
        continue;
      }
      const keys: string[] = [];
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, key: string) => {
        keys.push(key);
        return '([^/]+)';
      });
      const key = `${verb} ${area}`;
      const list = this.templated.get(key) ?? [];
      list.push({ pattern: new RegExp(`^${source}$`), keys, entry });
      this.templated.set(key, list);
    }
  }

  /** The operation `method` `path` (no query string) names; undefined when none does. */
  find(method: string, rawPath: string): Found<T> | undefined {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    return this.findExact(method, path) ?? (method === 'HEAD' ? this.findExact('GET', path) : undefined);
  }

  /** The methods some operation answers at `path` (for OPTIONS). */
  methodsAt(rawPath: string): string[] {
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => this.find(method, rawPath));
    return methods.includes('GET') ? [...methods.slice(0, 1), 'HEAD', ...methods.slice(1)] : methods;
  }

  private findExact(method: string, path: string): Found<T> | undefined {
    const entry = this.literal.get(`${method} ${path}`);
    if (entry) return { entry, params: {} };
    const area = areaOf(path);
    const candidates = area ? this.templated.get(`${method} ${area}`) : undefined;
    if (!candidates) return undefined;
    for (const candidate of candidates) {
      const match = candidate.pattern.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      candidate.keys.forEach((key, index) => (params[key] = decodeParam(match[index + 1] as string)));
      return { entry: candidate.entry, params };
    }
    return undefined;
  }
}

function paramCount(path: string): number {
  return path.match(/\{/g)?.length ?? 0;
}

function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    throw new MalformedParamError(value);
  }
}
