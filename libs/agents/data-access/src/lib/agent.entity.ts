import type { EngineKind } from '@gaia/contracts';

/** Row shapes of the agents tables (plain SQL repositories; TypeORM runs the migrations). */
export type ProcessingStatus = 'PROCESSING' | 'COMPLETED' | 'FAILED';
/** The engine kind of `@gaia/contracts` (defined once there). */
export type AgentEngine = EngineKind;

export interface AgentEntity {
  id: string;
  ownerId: string;
  ownerEmail: string;
  srcLang: string;
  tgtLang: string;
  customPrompt: string;
  coreMemory: string;
  learnedMemory: string;
  public: boolean;
  /** Lower-cased editor emails. */
  sharedWithEmails: string[];
  documentSource: string | null;
  processingTaskId: string | null;
  processingStatus: ProcessingStatus | null;
  processingError: string | null;
  documentCount: number;
  textBlocksExtracted: number;
  pairCount: number;
  engine: AgentEngine;
  artifactVersion: string | null;
  artifactKey: string | null;
  /** Bumped on every change (optimistic ordering for clients). */
  version: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  /** Bumped with every correction or glossary change (written only by the feedback repository). */
  feedbackVersion?: number;
}

export interface TeamMemberEntity {
  id: string;
  ownerId: string;
  name: string;
  /** Lower-cased. */
  email: string;
  role: 'Editor';
  /** invited: grants nothing yet; active: accepted by the verified owner of the email. */
  status: 'invited' | 'active';
  addedAt: Date;
  /** SHA-256 of the invitation link token while pending (null once accepted). */
  tokenHash: string | null;
  tokenExpiresAt: Date | null;
}
