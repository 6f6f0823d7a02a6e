import { defineOperation } from '../operation.ts';
import { ErrorBody, IdParams, OkResponse } from '../schemas/common.ts';
import { ApiTokenCreate, ApiTokenCreated, ApiTokenList, LoginRequest, Session, TokenLoginRequest } from '../schemas/auth.ts';

const tag = 'auth';

export const authOperations = {
  login: defineOperation({
    operationId: 'login',
    method: 'post',
    path: '/api/auth/login',
    tag,
    summary: 'Sign in with username and password',
    description: 'Starts a session behind an httpOnly, SameSite=Strict cookie. Attempts are throttled per account and per address and recorded in the login history.',
    permission: 'public',
    body: LoginRequest,
    responses: {
      200: { description: 'Signed in.', schema: Session },
      401: { description: 'Wrong username or password (the same answer for both).', schema: ErrorBody },
      429: { description: 'Too many failed attempts; try again later.', schema: ErrorBody },
    },
  }),
  loginWithToken: defineOperation({
    operationId: 'loginWithToken',
    method: 'post',
    path: '/api/auth/token-login',
    tag,
    summary: 'Sign in with a personal API token (the alternate login)',
    permission: 'public',
    body: TokenLoginRequest,
    responses: {
      200: { description: 'Signed in.', schema: Session },
      401: { description: 'Unknown or revoked token.', schema: ErrorBody },
      429: { description: 'Too many failed attempts.', schema: ErrorBody },
    },
  }),
  logout: defineOperation({
    operationId: 'logout',
    method: 'post',
    path: '/api/auth/logout',
    tag,
    summary: 'Sign out: revokes the session',
    permission: 'public',
    responses: { 200: { description: 'Signed out.', schema: OkResponse } },
  }),
  getSession: defineOperation({
    operationId: 'getSession',
    method: 'get',
    path: '/api/auth/session',
    tag,
    summary: 'The signed-in user and the session bounds',
    permission: 'authenticated',
    responses: { 200: { description: 'The session.', schema: Session } },
  }),
  listTokens: defineOperation({
    operationId: 'listTokens',
    method: 'get',
    path: '/api/tokens',
    tag: 'tokens',
    summary: 'List your personal API tokens',
    permission: 'authenticated',
    responses: { 200: { description: 'Your tokens.', schema: ApiTokenList } },
  }),
  createToken: defineOperation({
    operationId: 'createToken',
    method: 'post',
    path: '/api/tokens',
    tag: 'tokens',
    summary: 'Create a personal API token; its secret is returned once',
    permission: 'authenticated',
    body: ApiTokenCreate,
    responses: { 201: { description: 'Created.', schema: ApiTokenCreated } },
  }),
  revokeToken: defineOperation({
    operationId: 'revokeToken',
    method: 'delete',
    path: '/api/tokens/{id}',
    tag: 'tokens',
    summary: 'Revoke one of your personal API tokens',
    permission: 'authenticated',
    params: IdParams,
    responses: { 200: { description: 'Revoked.', schema: OkResponse }, 404: { description: 'No such token of yours.', schema: ErrorBody } },
  }),
};
