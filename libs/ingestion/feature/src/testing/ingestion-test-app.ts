import { ingestionUploadKey, type RpcResponse } from '@gaia/contracts';
import { ingestionSchema } from '@gaia/ingestion/data-access';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { createTestApp, type TestApp } from '@gaia/testing';
import { IngestionModule } from '../lib/ingestion.module';
import { IngestionEventRecorder } from './event-recorder';

/** Original files as start-processing receives them once the gateway has stored them. */
export type UploadedRefs = Array<{ key: string; filename: string; size: number }>;

export interface IngestionTestApp {
  t: TestApp;
  rpc: RpcClient;
  storage: FileStorage;
  rec: IngestionEventRecorder;
  /** Stores files as the gateway does for an upload and answers their refs. */
  upload(uploadId: string, files: Array<[string, Uint8Array]>): Promise<UploadedRefs>;
  /** Starts an update of the owner's es → gn agent with the uploaded files (start-processing, mode update). */
  update(agentId: string, ownerId: string, files: UploadedRefs): Promise<RpcResponse<'ingestion.start-processing.v1'>>;
}

/**
 * The ingestion service on real Postgres and storage, its events delivered through the outbox/inbox, with
 * IngestionEventRecorder standing in for the services it talks to (agents, gateway, retrieval).
 */
export async function createIngestionTestApp(env: Record<string, string> = {}): Promise<IngestionTestApp> {
  const t = await createTestApp({
    schemas: [ingestionSchema],
    consumers: ['ingestion', 'agents', 'gateway', 'retrieval'],
    imports: [IngestionModule],
    providers: [IngestionEventRecorder],
    env,
  });
  const storage = t.app.get<FileStorage>(FILE_STORAGE);
  const rpc = t.app.get<RpcClient>(RPC_CLIENT);
  return {
    t,
    rpc,
    storage,
    rec: t.app.get(IngestionEventRecorder),
    async upload(uploadId, files) {
      const refs: UploadedRefs = [];
      for (const [i, [filename, bytes]] of files.entries()) {
        const key = ingestionUploadKey(uploadId, i);
        await storage.put(key, bytes);
        refs.push({ key, filename, size: bytes.length });
      }
      return refs;
    },
    update: (agentId, ownerId, files) => rpc.call('ingestion.start-processing.v1', { mode: 'update', agentId, ownerId, srcLang: 'es', tgtLang: 'gn', files }),
  };
}
