import { defineOperation } from '../operation.ts';
import { DiagnosticsReport, InternetCheck } from '../schemas/diagnostics.ts';

const permission = { anyOf: ['DIAGNOSTICS_CHECK_VIEW'] } as const;

export const diagnosticsOperations = {
  getDiagnostics: defineOperation({
    operationId: 'getDiagnostics',
    method: 'get',
    path: '/api/diagnostics',
    tag: 'diagnostics',
    summary: 'The versions of the server components (Diagnostic Check)',
    description: 'Each component is read on this server, bounded in time (a few seconds at most in all). The Internet Connection row is GET /api/diagnostics/internet.',
    permission,
    responses: { 200: { description: 'One row per component.', schema: DiagnosticsReport } },
  }),
  checkInternetConnection: defineOperation({
    operationId: 'checkInternetConnection',
    method: 'get',
    path: '/api/diagnostics/internet',
    tag: 'diagnostics',
    summary: 'Whether this server reaches the Internet (on or off within a few seconds)',
    permission,
    responses: { 200: { description: 'On or off.', schema: InternetCheck } },
  }),
};
