import type { z } from 'zod';
import type { ApiToken } from '../../openapi/schemas/auth.ts';
import type { Principal } from '../auth/principal.ts';
import { newSecret, sha256 } from '../auth/secrets.ts';
import type { ApiTokenRow } from '../db/tables.ts';
import { NotFoundError } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { TokensRepository } from '../repositories/tokens.repository.ts';

type ApiTokenDto = z.infer<typeof ApiToken>;

export const TOKEN_PREFIX = 'mp_';

function toDto(row: ApiTokenRow): ApiTokenDto {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
  };
}

/** Personal API tokens: each acts with its user's permissions; the secret is shown once. */
export class TokensService {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly events?: EventBus,
    /** Called at a revocation, before the event goes out: this process's requests see it at once. */
    private readonly credentialsChanged: () => void = () => {},
  ) {}

  async list(principal: Principal): Promise<ApiTokenDto[]> {
    return (await this.tokens.listForUser(principal.userId)).map(toDto);
  }

  async create(principal: Principal, name: string): Promise<{ token: ApiTokenDto; secret: string }> {
    const secret = `${TOKEN_PREFIX}${newSecret()}`;
    const row = await this.tokens.insert({ userId: principal.userId, name, tokenHash: sha256(secret), prefix: secret.slice(0, 10) });
    return { token: toDto(row), secret };
  }

  async revoke(principal: Principal, id: number): Promise<void> {
    if (!(await this.tokens.revoke(principal.userId, id))) throw new NotFoundError('Token', id);
    this.credentialsChanged();
    // Every API process forgets what this token resolved to (no console receives this topic).
    await this.events?.publish({ topic: 'tokens', type: 'revoked', id });
  }
}
