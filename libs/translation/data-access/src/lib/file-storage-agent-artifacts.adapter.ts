import type { FileStorage } from '@gaia/shared/storage';
import { artifactKey, decodeAgentArtifacts } from '@gaia/retrieval/data-access';
import type { AgentArtifacts, AgentArtifactsPort } from './agent-artifacts.port';

export interface FileStorageArtifactsOptions {
  /** Storage key of an agent's artifact (default `agents/<id>/artifacts/v<version>.bin`, see ARCHITECTURE.md). */
  key?: (agentId: string, version: string) => string;
  /** Splits the stored artifact into the model and index bytes (default: `decodeAgentArtifacts`). */
  decode?: (bytes: Uint8Array) => AgentArtifacts;
}

/** Storage key of an agent version's artifact: the layout the retrieval service writes. */
export const defaultArtifactKey = artifactKey;

/** Reads an agent's learned artifact from file storage (`FILE_STORAGE`). */
export class FileStorageAgentArtifacts implements AgentArtifactsPort {
  private readonly key: (agentId: string, version: string) => string;

  private readonly decode: (bytes: Uint8Array) => AgentArtifacts;

  constructor(
    private readonly storage: FileStorage,
    options: FileStorageArtifactsOptions = {},
  ) {
    this.key = options.key ?? defaultArtifactKey;
    this.decode = options.decode ?? decodeAgentArtifacts;
  }

  async load(agentId: string, version: string, storedKey?: string | null): Promise<AgentArtifacts | null> {
    const key = storedKey || this.key(agentId, version);
    if (!(await this.storage.exists(key))) return null;
    return this.decode(await this.storage.get(key));
  }
}
