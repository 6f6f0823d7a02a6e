import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '../../components/Page.tsx';
import { useToast } from '../../components/toasts.tsx';
import { useCan } from '../../data/auth/queries.ts';
import type { Schemas } from '../../data/client.ts';
import { useCreateUser, useUpdateUser } from '../../data/users/mutations.ts';
import { useUser } from '../../data/users/queries.ts';
import { usePageTitle } from '../../shell/breadcrumbs.tsx';
import { UserForm } from './UserForm.tsx';
import { newUserValues, valuesOf } from './userFormModel.ts';

function NewUser() {
  usePageTitle('Add user');
  const create = useCreateUser();
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <div className="page">
      <PageHeader title="Add user" />
      <UserForm
        initial={newUserValues()}
        isNew
        readOnly={false}
        save={async (payload) => {
          const user = await create.mutateAsync(payload as Schemas['UserCreate']);
          toast.success(`User ${user.username} created.`);
          navigate(`/my/users/edit/${user.id}`, { replace: true });
        }}
      />
    </div>
  );
}

function ExistingUser({ id }: { id: number }) {
  const user = useUser(id);
  const update = useUpdateUser(id);
  const canEdit = useCan('USER_EDIT');
  const toast = useToast();
  usePageTitle(user.data ? `User ${user.data.username}` : 'User');

  if (user.isPending) return <div className="page-loading">Loading ...</div>;
  if (user.isError)
    return (
      <div className="page">
        <PageHeader title="User" />
        <div className="notice notice-error" role="alert">
          {user.error.message} <Link to="/my/users">Back to users</Link>
        </div>
      </div>
    );
  return (
    <div className="page">
      <PageHeader title={`User ${user.data.username}`} subtitle={user.data.enabled ? undefined : 'This user is disabled and cannot sign in.'} />
      <UserForm
        key={user.data.id}
        initial={valuesOf(user.data)}
        isNew={false}
        readOnly={!canEdit}
        save={async (payload) => {
          const saved = await update.mutateAsync(payload as Schemas['UserUpdate']);
          toast.success(`User ${saved.username} updated.`);
          return valuesOf(saved);
        }}
      />
    </div>
  );
}

/** /my/users/edit (Add user) and /my/users/edit/{id} (User {name}). */
export default function UserEditPage() {
  const { id } = useParams();
  if (id === undefined) return <NewUser />;
  const numeric = Number(id);
  if (!Number.isInteger(numeric) || numeric <= 0) return <div className="notice notice-error">No such user.</div>;
  return <ExistingUser key={numeric} id={numeric} />;
}
