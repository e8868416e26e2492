import { Inject, Injectable } from '@nestjs/common';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import type { UserRecord } from '@gaia/identity/data-access';
import { ApiKeysService } from '@gaia/identity/feature';
import { isDomainError } from '@gaia/shared/kernel';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { TranslateFileTaskStore, fileTaskDto } from '../translate-file/translate-file-task.store';
import { translatedFileName } from '../translate-file/translate-file.use-case';

/** Requests of each key listed in the export (newest first). */
const KEY_REQUESTS_IN_EXPORT = 1000;
/** Days of the daily usage series in the export. */
const USAGE_DAYS_IN_EXPORT = 366;

/** An uploaded file's name as one zip entry name (no directories, not task.json). */
const zipName = (name: string): string => {
  const flat = name.replace(/[/\\]/g, '_');
  return flat === 'task.json' ? '_task.json' : flat;
};

/** A stored file's bytes, or null when it is not there (a task interrupted before it was written). */
const stored = (read: Promise<Uint8Array>): Promise<Uint8Array | null> =>
  read.catch((e: unknown) => {
    if (isDomainError(e) && e.status === 404) return null;
    throw e;
  });

const json = (v: unknown): Uint8Array => new TextEncoder().encode(`${JSON.stringify(v, null, 2)}\n`);

const README = `Gaia account export
account.json            your profile and plan
usage.json              usage totals, the daily series of the last year and the current billing month
api-keys.json           your API keys (metadata only: secrets are never stored) with their usage
team.json               the editors you invited
agents/<id>/agent.json  each agent you own: languages, description, notes, learned memory, engine, visibility
agents/<id>/dataset/    its data: the files you uploaded and the normalised pairs (JSONL and TMX)
file-translations/<id>/ each file you had translated: task.json, the file you uploaded and the translated file
`;

/**
 * The privacy promise "export": everything the account owns as one zip — profile, agents with settings and
 * data, keys' metadata and usage, team. Gathered from the owning services over RPC.
 */
@Injectable()
export class ExportAccountUseCase {
  constructor(
    @Inject(RPC_CLIENT) private readonly rpc: RpcClient,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    private readonly keys: ApiKeysService,
    private readonly fileTasks: TranslateFileTaskStore,
  ) {}

  async build(user: UserRecord): Promise<Uint8Array> {
    const viewer = { uid: user.id, email: user.email.toLowerCase() };
    const [plan, usage, mine, keys, team] = await Promise.all([
      this.rpc.call('billing.get-plan.v1', { userId: user.id }),
      this.rpc.call('billing.usage-summary.v1', { userId: user.id, days: USAGE_DAYS_IN_EXPORT }),
      this.rpc.call('agents.list-mine.v1', { viewer }),
      this.keys.list(user.id),
      this.rpc.call('agents.team-list.v1', { ownerId: user.id }),
    ]);
    const files: Zippable = {
      'README.txt': new TextEncoder().encode(README),
      'account.json': json({
        uid: user.id,
        email: user.email,
        fullName: user.fullName,
        displayName: user.displayName,
        creationTime: user.createdAt.toISOString(),
        plan,
      }),
      'usage.json': json(usage),
      'team.json': json(team.members),
    };
    const keyRows = [];
    for (const k of keys) {
      const keyUsage = await this.rpc.call('billing.key-usage.v1', { keyId: k.id, limit: KEY_REQUESTS_IN_EXPORT });
      keyRows.push({
        key_id: k.id,
        name: k.name,
        prefix: k.prefix,
        rate_limit: k.rateLimit,
        created_at: k.createdAt.toISOString(),
        revoked: k.revokedAt !== null,
        usage: keyUsage,
      });
    }
    files['api-keys.json'] = json(keyRows);
    for (const agent of mine.owned) {
      files[`agents/${agent.id}/agent.json`] = json(agent);
      const dataset = await this.dataset(agent.id);
      for (const [name, bytes] of Object.entries(dataset)) files[`agents/${agent.id}/dataset/${name}`] = bytes;
    }
    for (const task of await this.fileTasks.tasksOf(user.id)) {
      const dir = `file-translations/${task.id}`;
      files[`${dir}/task.json`] = json(fileTaskDto(task));
      const source = await stored(this.fileTasks.source(task));
      if (source) files[`${dir}/${zipName(task.file_name)}`] = source;
      const result = task.status === 'COMPLETED' ? await stored(this.fileTasks.result(task)) : null;
      if (result) files[`${dir}/${zipName(translatedFileName(task))}`] = result;
    }
    return zipSync(files);
  }

  /** The agent's dataset zip (originals + pairs) unpacked; empty when it has no data yet. */
  private async dataset(agentId: string): Promise<Record<string, Uint8Array>> {
    try {
      const { key } = await this.rpc.call('ingestion.prepare-download.v1', { agentId });
      return unzipSync(await this.storage.get(key));
    } catch (e) {
      if (isDomainError(e) && e.status === 404) return {};
      throw e;
    }
  }
}
