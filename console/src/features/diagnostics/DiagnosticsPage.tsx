import { Card, PageHeader } from '../../components/Page.tsx';
import { useDiagnostics, useInternetCheck, type DiagnosticRow } from '../../data/diagnostics/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import '../../styles/dashboard.css';

function Indicator({ ok, label }: { ok: boolean; label: string }) {
  return <span className={`indicator ${ok ? 'indicator-on' : 'indicator-off'}`} role="img" aria-label={`${label}: ${ok ? 'present' : 'missing'}`} />;
}

/** The Internet Connection row: a spinner while checking (request), then on or off. */
function InternetRow() {
  const { data, isPending, isError } = useInternetCheck();
  const online = isPending ? 'request' : isError ? 'off' : data.online;
  return (
    <tr data-row="online">
      <td>{online === 'request' ? <span className="spinner" role="status" aria-label="Checking" /> : <Indicator ok={online === 'on'} label="Internet Connection" />}</td>
      <td className="diagnostics-label">Internet Connection</td>
      <td className="diagnostics-value" title={data?.detail}>
        {online}
      </td>
    </tr>
  );
}

function Row({ row }: { row: DiagnosticRow }) {
  return (
    <tr data-row={row.key}>
      <td>
        <Indicator ok={row.ok} label={row.label} />
      </td>
      <td className="diagnostics-label">{row.label}</td>
      <td className="diagnostics-value">{row.value ?? 'Not found'}</td>
    </tr>
  );
}

/** /my/versions: the Diagnostic Check (spec 03): the versions of the server components. */
export default function DiagnosticsPage() {
  usePageTitle('Diagnostic Check');
  const { data, isPending, isError } = useDiagnostics();
  return (
    <div className="page">
      <PageHeader title="Diagnostic Check" subtitle={data ? `Checked ${new Date(data.checkedAt).toLocaleString()}` : undefined} />
      <Card>
        {isPending && <div className="empty">Loading ...</div>}
        {isError && <div className="empty">The components could not be read.</div>}
        {data && (
          <div className="table-wrap">
            <table className="table diagnostics-table">
              <tbody>
                {data.rows.map((row) => (row.key === 'online' ? <InternetRow key={row.key} /> : <Row key={row.key} row={row} />))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
