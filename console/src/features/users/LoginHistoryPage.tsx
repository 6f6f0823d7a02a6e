import { formatDateTime, truncate } from '../../components/format.ts';
import { ListTable, type Column } from '../../components/list/ListTable.tsx';
import { useListState } from '../../components/list/useListState.ts';
import { PageHeader } from '../../components/Page.tsx';
import { useLoginHistory, type LoginHistoryEntry } from '../../data/users/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';

const USER_AGENT_SHOWN = 50;

const REASONS: Record<string, string> = {
  bad_credentials: 'Wrong username or password',
  bad_token: 'Unknown or revoked token',
  disabled: 'Account disabled',
  throttled: 'Too many failed attempts',
};

const columns: Column<LoginHistoryEntry>[] = [
  { key: 'time', header: 'Time', width: '170px', className: 'cell-mono', cell: (entry) => formatDateTime(entry.createdAt) },
  {
    key: 'username',
    header: 'Username',
    cell: (entry) => (
      <span className="history-user">
        {entry.username}
        {!entry.success && (
          <span className="badge badge-danger" title={REASONS[entry.reason ?? ''] ?? entry.reason ?? 'Failed'}>
            Failed
          </span>
        )}
      </span>
    ),
  },
  { key: 'ip', header: 'IP', className: 'cell-mono', cell: (entry) => entry.ip },
  { key: 'country', header: 'COUNTRY', cell: (entry) => entry.location ?? <span className="muted">--</span> },
  {
    key: 'userAgent',
    header: 'USER AGENT',
    cell: (entry) => (
      <span className="cell-user-agent" title={entry.userAgent}>
        {truncate(entry.userAgent, USER_AGENT_SHOWN)}
      </span>
    ),
  },
];

/** /my/users/histories: every sign-in attempt, newest first. */
export default function LoginHistoryPage() {
  usePageTitle('User history');
  const list = useListState();
  const history = useLoginHistory({ search: list.search || undefined, page: list.page, size: list.size, order: 'desc' });
  return (
    <div className="page">
      <PageHeader title="User history" subtitle="Sign-in attempts to the console, the CLI and the API, newest first." />
      <ListTable
        label="Login history"
        list={list}
        columns={columns}
        rows={history.data?.items}
        total={history.data?.total}
        rowKey={(entry) => entry.id}
        loading={history.isPending}
        fetching={history.isFetching}
        error={history.error}
        emptyText="No histories"
        searchPlaceholder="Enter Username, IP or Country"
        footer={<span className="count">Total: <strong>{history.data?.total ?? '–'}</strong></span>}
      />
    </div>
  );
}

