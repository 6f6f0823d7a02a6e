import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { NotFoundError } from '../errors.ts';

/** What the product serves of the jobs' outputs: today the keys of encrypted HLS outputs. */
export class StreamsService {
  constructor(private readonly keysDir: string) {}

  /** A key by its file name (already checked against the key name pattern by the contract). */
  async readKey(name: string): Promise<Buffer> {
    try {
      return await readFile(path.join(this.keysDir, path.basename(name)));
    } catch {
      throw new NotFoundError('Key', name);
    }
  }
}
