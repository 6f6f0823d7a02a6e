import { describe, expect, it } from 'vitest';
import { ApiError } from '../../openapi/client/index.ts';
import { UnreachableError } from '../../cli/context.ts';
import { CliError, errorLines } from '../../cli/output.ts';

describe('errorLines', () => {
  it('says code: message for an API error', () => {
    expect(errorLines(new ApiError(404, 'NOT_FOUND', 'User 9 not found.'))).toEqual(['NOT_FOUND: User 9 not found.']);
  });

  it('says a single field issue once', () => {
    const error = new ApiError(400, 'VALIDATION_FAILED', 'body.email: Bad', [{ path: 'body.email', message: 'Bad' }]);
    expect(errorLines(error)).toEqual(['VALIDATION_FAILED: body.email: Bad']);
  });

  it('puts several field issues one a line', () => {
    const details = [
      { path: 'body.username', message: 'Username is required' },
      { path: 'body.role', message: 'Role is required' },
    ];
    const error = new ApiError(400, 'VALIDATION_FAILED', 'body.username: Username is required; body.role: Role is required', details);
    expect(errorLines(error)).toEqual(['VALIDATION_FAILED: 2 fields break a rule:', '  body.username: Username is required', '  body.role: Role is required']);
  });

  it('keeps a message of its own above the issues', () => {
    const error = new ApiError(409, 'CONFLICT', 'Username is taken', [{ path: 'body.username', message: 'taken' }]);
    expect(errorLines(error)).toEqual(['CONFLICT: Username is taken', '  body.username: taken']);
  });

  it('adds the request id to a server failure and a hint to UNAUTHORIZED', () => {
    expect(errorLines(new ApiError(500, 'INTERNAL', 'Something went wrong.', undefined, 'req-1'))).toEqual(['INTERNAL: Something went wrong.', '  request id: req-1']);
    expect(errorLines(new ApiError(401, 'UNAUTHORIZED', 'Sign in to continue.'))[1]).toContain('mediaplane login');
  });

  it('says UNREACHABLE with the reason when the API cannot be reached', () => {
    expect(errorLines(new UnreachableError('http://h:1', 'connect ECONNREFUSED 1.2.3.4:1'))).toEqual(['UNREACHABLE: cannot reach http://h:1: connect ECONNREFUSED 1.2.3.4:1']);
  });

  it('reports its own errors and plain ones', () => {
    expect(errorLines(new CliError('CONFIRMATION_REQUIRED', 'pass --yes'))).toEqual(['CONFIRMATION_REQUIRED: pass --yes']);
    expect(errorLines(new Error('boom'))).toEqual(['error: boom']);
    expect(errorLines(new SyntaxError('Unexpected token <'))[0]).toMatch(/^BAD_RESPONSE: /);
  });
});
