import { diagnosticsOperations } from '../../openapi/paths/diagnostics.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

const { getDiagnostics, checkInternetConnection } = diagnosticsOperations;

export function diagnosticsRoutes({ diagnostics }: Services) {
  return [implement(getDiagnostics, async () => diagnostics.report()), implement(checkInternetConnection, async () => diagnostics.internet())];
}
