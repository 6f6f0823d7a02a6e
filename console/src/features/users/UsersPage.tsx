import { Link } from 'react-router-dom';
import { useConfirmDelete, useErrorAlert } from '../../components/dialogs.tsx';
import { Icon } from '../../components/icons.tsx';
import { Count, ListTable, type Column } from '../../components/list/ListTable.tsx';
import { useListState } from '../../components/list/useListState.ts';
import { PageHeader } from '../../components/Page.tsx';
import { ConfirmSwitch } from '../../components/Switch.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan, useCurrentUser } from '../../data/auth/queries.ts';
import { messageOf } from '../../data/client.ts';
import { useLiveUpdates } from '../../data/live.ts';
import { useDeleteUser, useSetUserEnabled } from '../../data/users/mutations.ts';
import { useUsers, type User } from '../../data/users/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';

const FILTERS = [
  { key: 'role', label: 'Role', options: [{ value: 'ADMIN', label: 'Admin' }, { value: 'USER', label: 'User' }] },
  { key: 'enabled', label: 'Status', options: [{ value: 'true', label: 'Active' }, { value: 'false', label: 'Disabled' }] },
] as const;

const LIVE_TOPICS = ['users'];

/** /my/users: the users, sorted by username, refreshed live when another console changes one. */
export default function UsersPage() {
  usePageTitle('Users');
  const me = useCurrentUser();
  const canEdit = useCan('USER_EDIT');
  const list = useListState({ filterKeys: ['role', 'enabled'], defaultSort: 'username' });
  const role = list.filters.role?.[0] as 'ADMIN' | 'USER' | undefined;
  const enabled = list.filters.enabled?.[0] as 'true' | 'false' | undefined;
  const users = useUsers({
    search: list.search || undefined,
    page: list.page,
    size: list.size,
    sort: list.sort === 'id' ? 'id' : 'username',
    order: list.order,
    role,
    enabled,
  });
  useLiveUpdates(LIVE_TOPICS);

  const setEnabled = useSetUserEnabled();
  const remove = useDeleteUser();
  const confirmDelete = useConfirmDelete();
  const showError = useErrorAlert();
  const toast = useToast();

  async function deleteUser(user: User) {
    if (!(await confirmDelete(`Delete user ${user.username}?`))) return;
    try {
      await remove.mutateAsync(user.id);
      toast.success(`User ${user.username} deleted.`);
    } catch (error) {
      await showError(messageOf(error));
    }
  }

  const columns: Column<User>[] = [
    {
      key: 'status',
      header: 'Status',
      align: 'center',
      width: '64px',
      cell: (user) => (
        <span className={user.enabled ? 'status-icon status-ok' : 'status-icon status-off'} title={user.enabled ? 'Enabled' : 'Disabled'} role="img" aria-label={user.enabled ? 'Enabled' : 'Disabled'}>
          <Icon name={user.enabled ? 'thumbsUp' : 'thumbsDown'} />
        </span>
      ),
    },
    {
      key: 'username',
      header: 'Username',
      sortKey: 'username',
      cell: (user) => (
        <Link to={`/my/users/edit/${user.id}`} className="cell-link">
          {user.username}
        </Link>
      ),
    },
    { key: 'email', header: 'E-mail', cell: (user) => user.email || <span className="muted">--</span> },
    {
      key: 'role',
      header: 'Role',
      cell: (user) => <span className={`badge${user.role.value === 'ADMIN' ? ' badge-primary' : ''}`}>{user.role.name}</span>,
    },
    {
      key: 'controls',
      header: 'Controls',
      align: 'right',
      width: '150px',
      cell: (user) => {
        const self = user.id === me.id;
        return (
          <div className="row-controls">
            {canEdit ? (
              <Link to={`/my/users/edit/${user.id}`} className="icon-button" aria-label={`Edit user ${user.username}`} title="Edit">
                <Icon name="pencil" />
              </Link>
            ) : (
              <Link to={`/my/users/edit/${user.id}`} className="icon-button" aria-label={`View user ${user.username}`} title="View">
                <Icon name="eye" />
              </Link>
            )}
            <ConfirmSwitch
              checked={user.enabled}
              label={`User ${user.username} enabled`}
              disabled={!canEdit || self}
              confirmText={(next) => (next ? `Enable user ${user.username}?` : `Disable user ${user.username}?`)}
              onConfirmed={async (next) => {
                await setEnabled.mutateAsync({ id: user.id, enabled: next });
                toast.success(`User ${user.username} ${next ? 'enabled' : 'disabled'}.`);
              }}
            />
            {canEdit && (
              <button
                type="button"
                className="icon-button icon-button-danger"
                aria-label={`Delete user ${user.username}`}
                title={self ? 'You cannot delete yourself' : 'Delete'}
                disabled={self}
                onClick={() => void deleteUser(user)}
              >
                <Icon name="trash" />
              </button>
            )}
          </div>
        );
      },
    },
  ];

  const counts = users.data?.counts;
  return (
    <div className="page">
      <PageHeader
        title="Users"
        actions={
          canEdit && (
            <>
              <Link to="/my/users/histories" className="button button-secondary">
                <Icon name="history" />
                User history
              </Link>
              <Link to="/my/users/edit" className="button">
                <Icon name="plus" />
                Add New
              </Link>
            </>
          )
        }
      />
      <ListTable
        label="Users"
        list={list}
        columns={columns}
        rows={users.data?.items}
        total={users.data?.total}
        rowKey={(user) => user.id}
        loading={users.isPending}
        fetching={users.isFetching}
        error={users.error}
        emptyText="No users"
        searchPlaceholder="Enter Username, E-mail or ID"
        filters={FILTERS}
        rowClassName={(user) => (user.enabled ? undefined : 'is-muted')}
        footer={
          <>
            <Count label="Total users" value={counts?.total} />
            <Count label="Active" value={counts?.active} tone="success" />
            <Count label="Failed" value={counts?.failed} tone={counts?.failed ? 'danger' : undefined} />
          </>
        }
      />
    </div>
  );
}
