import { useState } from 'react';
import { useUsers } from '../../data/users/queries.ts';
import type { AlarmSettings } from '../../data/alarms/queries.ts';

type Recipients = Pick<AlarmSettings['general'], 'assignedRecipientUsers' | 'recipientEmails'>;

/** Recipient users (e-mail and phone from their profile) and extra e-mail addresses. */
export function RecipientsEditor({ value, disabled, onChange }: { value: Recipients; disabled: boolean; onChange: (next: Recipients) => void }) {
  const users = useUsers({ page: 1, size: 500, order: 'asc' });
  const [address, setAddress] = useState('');
  const assigned = new Set(value.assignedRecipientUsers.map((u) => u.id));
  const valid = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address) && address.length <= 100;
  return (
    <div className="alarm-recipients">
      <div>
        <div className="field-label">Recipient users</div>
        <ul className="alarm-chips">
          {value.assignedRecipientUsers.map((u) => (
            <li key={u.id}>
              {u.username}
              {!disabled && (
                <button type="button" aria-label={`Remove ${u.username}`} onClick={() => onChange({ ...value, assignedRecipientUsers: value.assignedRecipientUsers.filter((x) => x.id !== u.id) })}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
        {!disabled && (
          <select
            aria-label="Add recipient user"
            value=""
            onChange={(e) => {
              const user = users.data?.items.find((u) => u.id === Number(e.target.value));
              if (user) onChange({ ...value, assignedRecipientUsers: [...value.assignedRecipientUsers, { id: user.id, username: user.username }] });
            }}
          >
            <option value="">Add user ...</option>
            {(users.data?.items ?? [])
              .filter((u) => !assigned.has(u.id))
              .map((u) => (
                <option key={u.id} value={u.id}>
                  {u.username}
                  {u.email ? ` <${u.email}>` : ''}
                </option>
              ))}
          </select>
        )}
      </div>
      <div>
        <div className="field-label">Recipient e-mails</div>
        <ul className="alarm-chips">
          {value.recipientEmails.map((r) => (
            <li key={r.id}>
              {r.email}
              {!disabled && (
                <button type="button" aria-label={`Remove ${r.email}`} onClick={() => onChange({ ...value, recipientEmails: value.recipientEmails.filter((x) => x.id !== r.id) })}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
        {!disabled && (
          <span className="alarm-add-email">
            <input type="email" aria-label="Recipient e-mail" placeholder="noc@example.com" value={address} onChange={(e) => setAddress(e.target.value)} />
            <button
              type="button"
              className="button button-secondary"
              disabled={!valid}
              onClick={() => {
                onChange({ ...value, recipientEmails: [...value.recipientEmails, { id: Math.max(0, ...value.recipientEmails.map((r) => r.id)) + 1, email: address }] });
                setAddress('');
              }}
            >
              Add
            </button>
          </span>
        )}
        {address && !valid && <div className="field-error">This doesn't look like valid e-mail</div>}
      </div>
    </div>
  );
}
