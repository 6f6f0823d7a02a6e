import type { z } from 'zod';
import type { StreampoolServer, StreampoolServerInput } from '../../openapi/schemas/settings.ts';
import { ConflictError, NotFoundError, ValidationError } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { StreampoolServerRow, StreampoolServersRepository } from '../repositories/streampool-servers.repository.ts';
import { maskSecret, type SecretsBox } from '../secrets-box.ts';

type Server = z.output<typeof StreampoolServer>;
type Input = z.output<typeof StreampoolServerInput>;

/** Streampool servers (Streampool Server Settings tab): API keys sealed at rest, masked to their last 9 characters on the way out. */
export class StreampoolServersService {
  constructor(
    private readonly repo: StreampoolServersRepository,
    private readonly box: SecretsBox,
    private readonly bus: EventBus,
  ) {}

  private toDto(row: StreampoolServerRow): Server {
    let apiKey: string;
    try {
      apiKey = maskSecret(this.box.open(row.api_key_sealed));
    } catch {
      apiKey = '(cannot be read with this secret key)';
    }
    return { id: row.id, alias: row.alias, publishAddress: row.publish_address, playbackAddress: row.playback_address, apiKey, usageCount: row.usage_count };
  }

  async list(): Promise<{ items: Server[] }> {
    return { items: (await this.repo.list()).map((row) => this.toDto(row)) };
  }

  async get(id: number): Promise<Server> {
    const row = await this.repo.findById(id);
    if (!row) throw new NotFoundError('Streampool server', id);
    return this.toDto(row);
  }

  async create(input: Input): Promise<Server> {
    const apiKey = input.apiKey?.trim() ?? '';
    if (!apiKey) throw ValidationError.field('apiKey', 'API key is required');
    const id = await this.repo.insert({ alias: input.alias, publish_address: input.publishAddress, playback_address: input.playbackAddress, api_key_sealed: this.box.seal(apiKey) });
    await this.bus.publish({ topic: 'settings', type: 'created', id: `streampoolServer:${id}` });
    return this.get(id);
  }

  /** An absent, empty or still-masked API key keeps the stored one. */
  async update(id: number, input: Input): Promise<Server> {
    const current = await this.get(id);
    const apiKey = input.apiKey?.trim() ?? '';
    const keep = apiKey === '' || apiKey === current.apiKey;
    const updated = await this.repo.update(id, {
      alias: input.alias,
      publish_address: input.publishAddress,
      playback_address: input.playbackAddress,
      ...(keep ? {} : { api_key_sealed: this.box.seal(apiKey) }),
    });
    if (!updated) throw new NotFoundError('Streampool server', id);
    await this.bus.publish({ topic: 'settings', type: 'updated', id: `streampoolServer:${id}` });
    return this.get(id);
  }

  async delete(id: number): Promise<void> {
    const current = await this.get(id);
    if (current.usageCount > 0) throw new ConflictError(`Streampool server ${id} is used by ${current.usageCount} job(s): change their deliveries first.`, 'IN_USE');
    if (!(await this.repo.delete(id))) throw new NotFoundError('Streampool server', id);
    await this.bus.publish({ topic: 'settings', type: 'deleted', id: `streampoolServer:${id}` });
  }
}
