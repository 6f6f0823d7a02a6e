import { z } from 'zod';
import { Timestamp } from './common.ts';
import { User } from './users.ts';

export const LoginRequest = z
  .object({
    username: z.string({ error: 'Username is required' }).min(1, 'Username is required').max(100),
    password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
  })
  .meta({ id: 'LoginRequest', description: 'Credentials for the Sign in form.' });

export const TokenLoginRequest = z
  .object({ token: z.string({ error: 'Token is required' }).min(1, 'Token is required').max(200) })
  .meta({ id: 'TokenLoginRequest', description: 'A personal API token, for the alternate login.' });

export const Session = z
  .object({
    user: User,
    expiresAt: Timestamp.describe('When the session ends at the latest (absolute timeout).'),
    idleTimeoutSeconds: z.number().int(),
  })
  .meta({ id: 'Session', description: 'The signed-in user and the session bounds.' });

export const ApiToken = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the token, to recognise it.'),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
  })
  .meta({ id: 'ApiToken', description: 'A personal API token; its secret is shown only once, at creation.' });

export const ApiTokenCreate = z
  .object({ name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name is too long') })
  .meta({ id: 'ApiTokenCreate', description: 'A name for the new token.' });

export const ApiTokenCreated = z
  .object({ token: ApiToken, secret: z.string().describe('The token itself. Shown this once; store it now.') })
  .meta({ id: 'ApiTokenCreated', description: 'The new token with its secret.' });

export const ApiTokenList = z.object({ items: z.array(ApiToken) }).meta({ id: 'ApiTokenList', description: 'The tokens of the signed-in user.' });
