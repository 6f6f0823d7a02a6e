import { defineOperation } from '../operation.ts';
import { ErrorBody, IdParams, OkResponse } from '../schemas/common.ts';
import { LoginHistoryPage, LoginHistoryQuery, User, UserCreate, UserEnabled, UserListQuery, UserPage, UserUpdate } from '../schemas/users.ts';

const tag = 'users';
const view = { anyOf: ['USER_VIEW', 'USER_EDIT'] } as const;
const edit = { anyOf: ['USER_EDIT'] } as const;
const notFound = { description: 'No user with that id.', schema: ErrorBody };

export const userOperations = {
  listUsers: defineOperation({
    operationId: 'listUsers',
    method: 'get',
    path: '/api/users',
    tag,
    summary: 'List users, sorted by username, with the Total/Active/Failed counts',
    permission: view,
    query: UserListQuery,
    responses: { 200: { description: 'A page of users.', schema: UserPage } },
  }),
  getUser: defineOperation({
    operationId: 'getUser',
    method: 'get',
    path: '/api/users/{id}',
    tag,
    summary: 'Get a user',
    permission: view,
    params: IdParams,
    responses: { 200: { description: 'The user.', schema: User }, 404: notFound },
  }),
  createUser: defineOperation({
    operationId: 'createUser',
    method: 'post',
    path: '/api/users',
    tag,
    summary: 'Create a user',
    description: 'An editor who is not ADMIN can grant only the permissions it holds itself, and cannot create ADMIN users.',
    permission: edit,
    body: UserCreate,
    responses: {
      201: { description: 'Created.', schema: User },
      400: { description: 'A field breaks a rule.', schema: ErrorBody },
      409: { description: 'The username is taken.', schema: ErrorBody },
    },
  }),
  updateUser: defineOperation({
    operationId: 'updateUser',
    method: 'put',
    path: '/api/users/{id}',
    tag,
    summary: 'Update a user',
    description: 'A password change, a role change or disabling the user revokes its sessions.',
    permission: edit,
    params: IdParams,
    body: UserUpdate,
    responses: {
      200: { description: 'Updated.', schema: User },
      400: { description: 'A field breaks a rule.', schema: ErrorBody },
      404: notFound,
      409: { description: 'The username is taken.', schema: ErrorBody },
    },
  }),
  setUserEnabled: defineOperation({
    operationId: 'setUserEnabled',
    method: 'put',
    path: '/api/users/{id}/enabled',
    tag,
    summary: 'Enable or disable a user; disabling revokes its sessions and tokens stop working',
    permission: edit,
    params: IdParams,
    body: UserEnabled,
    responses: { 200: { description: 'Done.', schema: User }, 404: notFound, 409: { description: 'You cannot disable yourself.', schema: ErrorBody } },
  }),
  deleteUser: defineOperation({
    operationId: 'deleteUser',
    method: 'delete',
    path: '/api/users/{id}',
    tag,
    summary: 'Delete a user',
    permission: edit,
    params: IdParams,
    responses: { 200: { description: 'Deleted.', schema: OkResponse }, 404: notFound, 409: { description: 'You cannot delete yourself, nor the last enabled ADMIN.', schema: ErrorBody } },
  }),
  listLoginHistory: defineOperation({
    operationId: 'listLoginHistory',
    method: 'get',
    path: '/api/users/histories',
    tag,
    summary: 'The login history: every sign-in attempt, newest first',
    permission: edit,
    query: LoginHistoryQuery,
    responses: { 200: { description: 'A page of the history.', schema: LoginHistoryPage } },
  }),
};
