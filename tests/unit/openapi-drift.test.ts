import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES_PATH, OPENAPI_JSON_PATH, renderContract } from '../../openapi/build.ts';
import { operations } from '../../openapi/paths/index.ts';

describe('the committed contract', () => {
  it('openapi.json and the client types match what the code generates (run `npm run openapi` after changing the API)', async () => {
    const { json, types } = await renderContract();
    expect(readFileSync(OPENAPI_JSON_PATH, 'utf8')).toBe(json);
    expect(readFileSync(CLIENT_TYPES_PATH, 'utf8')).toBe(types);
  });

  it('gives every operation a unique operationId and a declared permission', () => {
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of operations) expect(op.permission, op.operationId).toBeDefined();
  });
});
