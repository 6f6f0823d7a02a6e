import { authOperations } from '../../openapi/paths/auth.ts';
import type { Services } from '../services/index.ts';
import { userToDto } from '../services/users.service.ts';
import { implement } from '../http/operations.ts';
import { clearSessionCookie, sessionIdOf, setSessionCookie } from '../http/session-cookie.ts';
import { NotFoundError, UnauthorizedError } from '../errors.ts';

const {login, loginWithToken, logout, getSession, listTokens, createToken, revokeToken} = authOperations;

export function authRoutes(services: Services) {
  const { auth, tokens, users } = services;
  const session = (signedIn: { user: Parameters<typeof userToDto>[0]; expiresAt: Date }) => ({
    user: userToDto(signedIn.user),
    expiresAt: signedIn.expiresAt.toISOString(),
    idleTimeoutSeconds: auth.idleTimeoutSeconds,
  });
  return [
    implement(login, async ({ body, client, req, res }) => {
      const signedIn = await auth.login(body.username, body.password, client);
      await auth.logout(sessionIdOf(req)); // a new session id at every sign-in
      setSessionCookie(req, res, signedIn.sessionId, signedIn.expiresAt);
      return session(signedIn);
    }),
    implement(loginWithToken, async ({ body, client, req, res }) => {
      const signedIn = await auth.loginWithToken(body.token, client);
      await auth.logout(sessionIdOf(req));
      setSessionCookie(req, res, signedIn.sessionId, signedIn.expiresAt);
      return session(signedIn);
    }),
    implement(logout, async ({ req, res }) => {
      await auth.logout(sessionIdOf(req));
      clearSessionCookie(req, res);
      return { ok: true };
    }),
    implement(getSession, async ({ principal, res }) => {
      const user = await users.get(principal.userId).catch((error) => {
        throw error instanceof NotFoundError ? new UnauthorizedError() : error;
      });
      const expiresAt = (res.locals.sessionExpiresAt as Date | undefined) ?? new Date(Date.now() + auth.idleTimeoutSeconds * 1000);
      return { user, expiresAt: expiresAt.toISOString(), idleTimeoutSeconds: auth.idleTimeoutSeconds };
    }),
    implement(listTokens, async ({ principal }) => ({ items: await tokens.list(principal) })),
    implement(createToken, async ({ principal, body }) => tokens.create(principal, body.name)),
    implement(revokeToken, async ({ principal, params }) => {
      await tokens.revoke(principal, params.id);
      return { ok: true };
    }),
  ];
}
