import { userOperations } from '../../openapi/paths/users.ts';
import { implement } from '../http/operations.ts';
import type { Services } from '../services/index.ts';

const {listUsers, getUser, createUser, updateUser, setUserEnabled, deleteUser, listLoginHistory} = userOperations;

export function userRoutes({ users, loginHistory }: Services) {
  return [
    implement(listUsers, async ({ query }) => users.list(query)),
    implement(getUser, async ({ params }) => users.get(params.id)),
    implement(createUser, async ({ principal, body }) => users.create(principal, body)),
    implement(updateUser, async ({ principal, params, body }) => users.update(principal, params.id, body)),
    implement(setUserEnabled, async ({ principal, params, body }) => users.setEnabled(principal, params.id, body.enabled)),
    implement(deleteUser, async ({ principal, params }) => {
      await users.delete(principal, params.id);
      return { ok: true };
    }),
    implement(listLoginHistory, async ({ query }) => loginHistory.list(query)),
  ];
}
