import type { OperationDef } from '../operation.ts';
import { authOperations } from './auth.ts';
import { streamOperations } from './streams.ts';
import { systemOperations } from './system.ts';
import { userOperations } from './users.ts';

/** Every operation of the API. Adding an area is one import and one entry here. */
export const operations: readonly OperationDef[] = [systemOperations, authOperations, userOperations, streamOperations].flatMap((area) => Object.values(area));
