import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '@gaia/shared/database';

/** Named settings of the installation (e.g. the public translator's key), shared by every replica. */
export interface SettingRepositoryPort {
  get(name: string): Promise<string | null>;
  /** Stores `value` unless a value exists; answers the stored one (first writer wins across replicas). */
  getOrCreate(name: string, value: string): Promise<string>;
}
export const SETTING_REPOSITORY = Symbol('SETTING_REPOSITORY');

@Injectable()
export class PostgresSettingRepository implements SettingRepositoryPort {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async get(name: string): Promise<string | null> {
    const rows = await this.ds.query(`SELECT value FROM identity_setting WHERE name = $1`, [name]);
    return rows.length ? (rows[0].value as string) : null;
  }

  async getOrCreate(name: string, value: string): Promise<string> {
    await this.ds.query(`INSERT INTO identity_setting (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [name, value]);
    return (await this.get(name)) as string;
  }
}
