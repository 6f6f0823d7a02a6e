import { z } from 'zod';

export const DIAGNOSTIC_KEYS = [
  'javaVersion',
  'javaName',
  'tomcatVersion',
  'mysqlVersion',
  'online',
  'rixjobVersion',
  'gstreamerVersion',
  'vaapiVersion',
  'dvbAdapters',
  'dvbVersion',
  'captureCards',
  'ffmpegVersion',
  'pingVersion',
  'mtrVersion',
  'iptablesVersion',
  'geoipVersion',
] as const;

export const DiagnosticRow = z
  .object({
    key: z.enum(DIAGNOSTIC_KEYS).describe('The field of the spec\'s Versions info this row answers.'),
    label: z.string().describe('The row title, as the spec spells it (this stack\'s equivalents for JVM and Tomcat).'),
    value: z.string().nullable().describe('What was read; null when the component is missing (a red indicator).'),
    ok: z.boolean().describe('Green when a value is present.'),
  })
  .meta({ id: 'DiagnosticRow', description: 'One row of the Diagnostic Check.' });

export const DiagnosticsReport = z
  .object({ rows: z.array(DiagnosticRow), checkedAt: z.string() })
  .meta({ id: 'DiagnosticsReport', description: 'The versions of the server components (spec 03 Diagnostic Check); the Internet Connection row is checked apart.' });

export const InternetCheck = z
  .object({
    online: z.enum(['on', 'off']),
    detail: z.string().describe('What was tried and what came of it.'),
    elapsedMs: z.number().int(),
  })
  .meta({ id: 'InternetCheck', description: 'The Internet Connection row: a DNS lookup and a TCP connect to a well-known host, each bounded to 2 s.' });
