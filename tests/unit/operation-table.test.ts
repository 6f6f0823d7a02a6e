import { describe, expect, it } from 'vitest';
import { MalformedParamError, OperationTable } from '../../api/http/operation-table.ts';
import { operations } from '../../openapi/paths/index.ts';
import type { OperationDef } from '../../openapi/operation.ts';

const op = (method: OperationDef['method'], path: string) => ({ op: { method, path, operationId: `${method} ${path}` } as OperationDef });

describe('OperationTable', () => {
  const table = new OperationTable([
    op('get', '/api/users/{id}'),
    op('get', '/api/users/histories'),
    op('get', '/api/users'),
    op('post', '/api/users'),
    op('delete', '/api/relays/{id}/comments/{commentId}'),
    op('get', '/api/relays/{id}'),
  ]);
  const idOf = (method: string, path: string) => table.find(method, path)?.entry.op.operationId;

  it('finds a literal path before a templated one of the same area', () => {
    expect(idOf('GET', '/api/users/histories')).toBe('get /api/users/histories');
    expect(table.find('GET', '/api/users/7')).toMatchObject({ entry: { op: { path: '/api/users/{id}' } }, params: { id: '7' } });
  });

  it('tells methods apart and answers HEAD with GET', () => {
    expect(idOf('POST', '/api/users')).toBe('post /api/users');
    expect(idOf('PUT', '/api/users')).toBeUndefined();
    expect(idOf('HEAD', '/api/users')).toBe('get /api/users');
    expect(table.methodsAt('/api/users')).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('reads every parameter, percent-decoded, and ignores a trailing slash', () => {
    expect(table.find('DELETE', '/api/relays/12/comments/3/')?.params).toEqual({ id: '12', commentId: '3' });
    expect(table.find('GET', '/api/relays/a%20b')?.params).toEqual({ id: 'a b' });
    expect(() => table.find('GET', '/api/relays/%E0%A4%A')).toThrow(MalformedParamError);
  });

  it('matches a parameter within one segment only, and nothing outside /api/<area>', () => {
    expect(idOf('GET', '/api/relays/12/extra')).toBeUndefined();
    expect(idOf('GET', '/api/relays/')).toBeUndefined();
    expect(idOf('GET', '/streams/relays/12')).toBeUndefined();
    expect(idOf('GET', '/api/users.json')).toBeUndefined();
  });

  it('finds every operation of the contract at its own path', () => {
    const contract = new OperationTable(operations.map((o) => ({ op: o })));
    for (const o of operations) {
      const sample = o.path.replace(/\{(\w+)\}/g, '1');
      const found = contract.find(o.method.toUpperCase(), sample);
      // A literal sibling (e.g. /users/histories next to /users/{id}) wins only where the sample is that literal.
      expect(found?.entry.op.path.replace(/\{(\w+)\}/g, '1'), `${o.method} ${o.path}`).toBe(sample);
    }
  });
});
