import type { Command } from 'commander';
import { unwrap, type Schemas } from '../../openapi/client/index.ts';
import { contextOf } from '../context.ts';
import { printJson, printTable, terminalWidth } from '../output.ts';
import type { Column } from '../ui/table.tsx';

type Row = Schemas['DiagnosticRow'];

const columns: Column<Row>[] = [
  { header: '', value: (r) => (r.ok ? '●' : '●'), color: (r) => (r.ok ? 'green' : 'red') },
  { header: 'COMPONENT', value: (r) => r.label },
  { header: 'VALUE', value: (r) => r.value ?? 'Not found', color: (r) => (r.ok ? undefined : 'red') },
];

/**
 * `mediaplane diagnostics`: the Diagnostic Check of /my/versions, every component read on the
 * server with a green or red mark; the Internet Connection row is checked at the same time.
 */
export function registerDiagnosticsCommand(program: Command): void {
  program
    .command('diagnostics')
    .description('The Diagnostic Check: versions of the server components (Node.js, Express, database, Internet connection, ffmpeg, GPU, DVB, ping, mtr, firewall, GeoIP)')
    .option('--json', 'print the rows as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { client } = contextOf(command);
      const [report, internet] = await Promise.all([unwrap(client.GET('/api/diagnostics')), unwrap(client.GET('/api/diagnostics/internet'))]);
      const rows = report.rows.map((row) => (row.key === 'online' ? { ...row, value: internet.online, ok: internet.online === 'on' } : row));
      if (options.json) return printJson({ rows, internet, checkedAt: report.checkedAt });
      await printTable(columns, rows, 'No entries');
    });
}
