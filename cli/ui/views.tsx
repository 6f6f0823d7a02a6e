import type { Schemas } from '../../openapi/client/index.ts';
import { formatTime } from '../output.ts';
import { Fields } from './fields.tsx';
import { Table, type Column } from './table.tsx';

/** What the read commands show when not asked for --json. */

const yesNo = (value: boolean) => (value ? 'yes' : 'no');
const limit = (value: number) => (value === 0 ? '0 (no limit)' : String(value));

const userColumns: Column<Schemas['User']>[] = [
  { header: 'ID', value: (u) => String(u.id), align: 'right' },
  { header: 'USERNAME', value: (u) => u.username },
  { header: 'ROLE', value: (u) => u.role.value },
  { header: 'E-MAIL', value: (u) => u.email || '-' },
  { header: 'ENABLED', value: (u) => yesNo(u.enabled), color: (u) => (u.enabled ? 'green' : 'red') },
];

export function UserPageView({ page, maxWidth }: { page: Schemas['UserPage']; maxWidth?: number }) {
  const { total, active, failed } = page.counts;
  const pages = Math.max(1, Math.ceil(page.total / page.size));
  const paging = pages > 1 ? `   Page ${page.page} of ${pages}` : '';
  return (
    <Table
      columns={userColumns}
      rows={page.items}
      empty="No users"
      footer={`Total users: ${total}   Active: ${active}   Failed: ${failed}${paging}`}
      maxWidth={maxWidth}
    />
  );
}

export function UserView({ user }: { user: Schemas['User'] }) {
  const permissions = user.role.value === 'ADMIN' ? 'all (ADMIN)' : user.grantedPermissions.join(', ') || 'none';
  return (
    <Fields
      fields={[
        ['ID', String(user.id)],
        ['Username', user.username],
        ['Role', user.role.value],
        ['E-mail', user.email || '-'],
        ['Phone number', user.phoneNumber || '-'],
        ['Enabled', yesNo(user.enabled)],
        ['Relays limit', limit(user.relaysLimit)],
        ['Encodings limit', limit(user.encodingsLimit)],
        ['Playbacks limit', limit(user.timeshiftPlayersLimit)],
        ['Recorders limit', limit(user.timeshiftRecordersLimit)],
        ['Permissions', permissions],
        ['Created', formatTime(user.createdAt)],
        ['Updated', formatTime(user.updatedAt)],
      ]}
    />
  );
}

const tokenColumns: Column<Schemas['ApiToken']>[] = [
  { header: 'ID', value: (t) => String(t.id), align: 'right' },
  { header: 'NAME', value: (t) => t.name },
  { header: 'PREFIX', value: (t) => `${t.prefix}…` },
  { header: 'CREATED', value: (t) => formatTime(t.createdAt) },
  { header: 'LAST USED', value: (t) => formatTime(t.lastUsedAt) },
];

export function TokenListView({ tokens, maxWidth }: { tokens: Schemas['ApiToken'][]; maxWidth?: number }) {
  return <Table columns={tokenColumns} rows={tokens} empty="No tokens" maxWidth={maxWidth} />;
}
