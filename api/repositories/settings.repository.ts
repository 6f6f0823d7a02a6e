import type { Db } from '../db/database.ts';

/** System settings as a key/value store of JSON documents. */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.db.selectFrom('system_settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value as T | undefined;
  }

  async set(key: string, value: unknown): Promise<void> {
    const json = JSON.stringify(value);
    await this.db
      .insertInto('system_settings')
      .values({ key, value: json })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: new Date() }))
      .execute();
  }
}
