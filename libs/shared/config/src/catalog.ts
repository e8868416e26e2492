import { z } from 'zod';

/**
 * Every environment variable the platform reads, in one place. Each app picks the groups it needs
 * (see `app-configs.ts`); docs/configuration.md and the Helm chart's ConfigMap/Secret are generated
 * from / checked against this catalog. `secret: true` values belong in a Kubernetes Secret.
 */
export interface VariableSpec {
  schema: z.ZodType;
  description: string;
  secret?: boolean;
  example?: string;
}

const port = z.coerce.number().int().min(0).max(65535);
const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalUrl = z.string().url().optional();

/** Bytes in one of the `*_MB` variables' megabytes (MiB). */
export const BYTES_PER_MB = 1024 * 1024;

export const VARIABLE_GROUPS = {
  core: {
    NODE_ENV: { schema: z.enum(['development', 'production', 'test']).default('development'), description: 'Runtime mode.' },
    LOG_LEVEL: { schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'), description: 'pino log level.' },
    PORT: { schema: port.default(8080), description: 'HTTP port (gateway/platform: the API and web app; other services: health endpoints only).' },
    HOST: { schema: z.string().default('0.0.0.0'), description: 'Interface to bind.' },
    METRICS_PORT: {
      schema: port.optional(),
      description:
        'Port of the Prometheus GET /metrics listener, apart from PORT so an Ingress never exposes it. Unset: no metrics listener (the Helm chart sets 9464); 0: any free port.',
      example: '9464',
    },
    DATA_DIR: {
      schema: z.string().default('./data'),
      description: 'Local data folder: embedded Postgres (when DATABASE_URL is unset) and default file storage.',
    },
    SHUTDOWN_GRACE_MS: { schema: z.coerce.number().int().positive().default(10000), description: 'How long SIGTERM waits for in-flight work before exiting.' },
  },
  database: {
    DATABASE_URL: {
      schema: z.string().optional(),
      secret: true,
      description:
        'Postgres connection string. Unset: the platform starts embedded Postgres (its cluster in DATA_DIR/postgres, or under /var/lib/gaia as root when the postgres user cannot reach DATA_DIR).',
      example: 'postgres://gaia:***@db:5432/gaia',
    },
    DATABASE_POOL_SIZE: { schema: z.coerce.number().int().min(1).max(200).default(10), description: 'Connection pool size per process.' },
    DATABASE_SSL: { schema: bool.default(false), description: 'Use TLS to reach Postgres.' },
    EMBEDDED_POSTGRES_PORT: {
      schema: port.optional(),
      description:
        'Port of the embedded Postgres (only when DATABASE_URL is unset). Unset: the one remembered in DATA_DIR/postgres.json, else 54329 when free, else any free port.',
    },
    MIGRATIONS_RUN: {
      schema: bool.default(true),
      description: 'Run pending migrations at start (under an advisory lock). Set false when a migration Job runs them.',
    },
  },
  messaging: {
    MESSAGING_TRANSPORT: {
      schema: z.enum(['inprocess', 'nats', 'kafka']).default('inprocess'),
      description: 'Event transport: inprocess (single process), nats, kafka. RPC uses NATS unless inprocess.',
    },
    NATS_URL: {
      schema: z.string().default('nats://127.0.0.1:4222'),
      description: 'NATS server(s), comma separated: request/reply between services, and events when MESSAGING_TRANSPORT=nats.',
    },
    KAFKA_BROKERS: {
      schema: z.string().optional(),
      description: 'Kafka brokers, comma separated (MESSAGING_TRANSPORT=kafka).',
      example: 'kafka-0:9092,kafka-1:9092',
    },
    KAFKA_CLIENT_ID: { schema: z.string().default('gaia'), description: 'Kafka client id prefix.' },
    KAFKA_SSL: { schema: bool.default(false), description: 'Use TLS to reach Kafka.' },
    KAFKA_SASL_MECHANISM: { schema: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(), description: 'Kafka SASL mechanism.' },
    KAFKA_SASL_USERNAME: { schema: z.string().optional(), description: 'Kafka SASL user.' },
    KAFKA_SASL_PASSWORD: { schema: z.string().optional(), secret: true, description: 'Kafka SASL password.' },
    MESSAGING_NAMESPACE: {
      schema: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/)
        .default('gaia'),
      description: 'Prefix of NATS subjects, so several installations (or test runs) can share one NATS server.',
    },
    OUTBOX_POLL_MS: {
      schema: z.coerce.number().int().min(10).default(1000),
      description: 'Outbox relay fallback poll interval (it also wakes on LISTEN/NOTIFY).',
    },
    RPC_TIMEOUT_MS: { schema: z.coerce.number().int().min(100).default(30000), description: 'Default timeout of a call between services.' },
  },
  redis: {
    REDIS_URL: {
      schema: z.string().optional(),
      secret: true,
      description: 'Redis for the Socket.IO adapter and shared counters across gateway replicas. Unset: single-process adapter, counters in Postgres.',
      example: 'redis://redis:6379',
    },
  },
  storage: {
    FILE_STORAGE_DIR: {
      schema: z.string().optional(),
      description: 'Where uploaded originals and agent artifacts are stored (a shared volume in Kubernetes). Default DATA_DIR/files.',
    },
  },
  retrieval: {
    RETRIEVAL_BACKEND: {
      schema: z.enum(['embedded', 'opensearch']).default('embedded'),
      description: 'Retrieval index: embedded (in-process hybrid index) or opensearch.',
    },
    OPENSEARCH_URL: { schema: optionalUrl, description: 'OpenSearch endpoint (RETRIEVAL_BACKEND=opensearch).' },
    OPENSEARCH_USERNAME: { schema: z.string().optional(), description: 'OpenSearch user.' },
    OPENSEARCH_PASSWORD: { schema: z.string().optional(), secret: true, description: 'OpenSearch password.' },
  },
  llm: {
    OPENAI_BASE_URL: {
      schema: optionalUrl,
      description: 'OpenAI-compatible endpoint (OpenAI, vLLM, Ollama, llama.cpp). Unset with no key: LLM engine disabled.',
    },
    OPENAI_API_KEY: { schema: z.string().optional(), secret: true, description: 'API key of the LLM endpoint.' },
    OPENAI_CHAT_MODEL: { schema: z.string().default('gpt-4o-mini'), description: 'Chat model for the LLM engine.' },
    OPENAI_EMBEDDINGS_MODEL: { schema: z.string().optional(), description: 'Optional embeddings model.' },
    OPENAI_VISION_MODEL: { schema: z.string().optional(), description: 'Optional vision model for scanned pages and images.' },
    OPENAI_TIMEOUT_MS: { schema: z.coerce.number().int().min(100).default(30000), description: 'Timeout of one LLM call.' },
    OPENAI_MAX_RETRIES: { schema: z.coerce.number().int().min(0).max(10).default(2), description: 'Retries on 429/5xx with backoff.' },
    OPENAI_MAX_RETRY_DELAY_MS: {
      schema: z.coerce.number().int().min(0).max(120000).default(10000),
      description: 'Longest wait before a retry (Retry-After or backoff); a longer one gives up at once and the built-in engine answers.',
    },
    OPENAI_CANDIDATES: { schema: z.coerce.number().int().min(1).max(8).default(3), description: 'K: phase-1 candidates the LLM engine asks for.' },
    OPENAI_CANDIDATE_MODE: {
      schema: z.enum(['n', 'sample']).default('n'),
      description: '`n` (one call with n=K) or `sample` (K calls at rising temperatures, for servers that ignore n).',
    },
  },
  ingestion: {
    INGESTION_JOB_LEASE_MS: {
      schema: z.coerce.number().int().min(1000).default(120000),
      description:
        'Lease of a processing task: the fallback after which another replica resumes a task whose process died (a dead process is noticed at once through its Postgres liveness lock; the lease applies only where session locks are not reliable, e.g. behind a transaction pooler).',
    },
    PUBLIC_CORPORA_URL: {
      schema: z.string().url().default('https://opus.nlpl.eu/opusapi/'),
      description:
        'JSON API of the OPUS-style catalogue of public parallel corpora (Builder "Find public data", `gaia corpora`): `?source=&target=&preprocessing=&version=latest` answers `{corpora:[{corpus, version, alignment_pairs, size, url, …}]}`.',
    },
  },
  translation: {
    TRANSLATION_AGENT_CACHE_MB: {
      schema: z.coerce.number().int().min(16).default(384),
      description:
        'Memory budget of the LRU of loaded agents per translation process (their in-memory model + index); agents beyond it stay on disk and load on their next request. The pod memory limit must cover this budget plus TRANSLATION_FEEDBACK_CACHE_MB plus the process baseline (about 256 MiB; on the platform also the upload memory, see UPLOAD_MEMORY_BUDGET_MB); the Helm chart gives translation 1536Mi (`components.translation.resources`).',
    },
    TRANSLATION_FEEDBACK_CACHE_MB: {
      schema: z.coerce.number().int().min(1).default(64),
      description:
        "Memory budget of the cache of agents' corrections and glossaries per translation process (least recently used dropped first; an agent whose feedback alone exceeds it answers without it until its feedback changes, read once per change).",
    },
  },
  metering: {
    PUBLIC_TRANSLATE_PER_IP_PER_MINUTE: {
      schema: z.coerce.number().int().min(1).default(20),
      description:
        'Public translator (anonymous, the shared page key): translations per client IP per minute. Signed-in users count under their plan (Free: 10 a day, API and dashboard together).',
    },
    PUBLIC_TRANSLATE_PER_IP_PER_DAY: {
      schema: z.coerce.number().int().min(1).default(200),
      description: 'Public translator: translations per client IP per UTC day.',
    },
  },
  auth: {
    SESSION_SECRET: {
      schema: z.string().min(32).optional(),
      secret: true,
      description:
        'Secret signing session and CSRF cookies (≥32 chars); it also salts the key sealing pending OIDC sign-ins (PKCE verifier and nonce at rest). Unset: the cookie secret is generated once and stored in the database, and pending sign-ins are sealed with their state alone.',
    },
    PUBLIC_BASE_URL: { schema: z.string().url().optional(), description: 'Public URL of the gateway (OIDC redirect, links). Default http://localhost:PORT.' },
    OIDC_ISSUER_URL: { schema: optionalUrl, description: 'OpenID Connect issuer for popup sign-in. Unset: popup sign-in hidden.' },
    OIDC_CLIENT_ID: { schema: z.string().optional(), description: 'OIDC client id.' },
    OIDC_CLIENT_SECRET: { schema: z.string().optional(), secret: true, description: 'OIDC client secret.' },
    OIDC_PROVIDER_NAME: { schema: z.string().default('Single sign-on'), description: 'Label of the popup sign-in button.' },
    TRUST_PROXY: { schema: bool.default(false), description: 'Trust X-Forwarded-* headers (behind an ingress) for client IPs.' },
    SMTP_URL: {
      schema: z.string().url().optional(),
      secret: true,
      description:
        'SMTP server for verification and invitation mail. Unset: the embedded mailbox writes each message to DATA_DIR/mailbox and logs its link (development only).',
      example: 'smtps://gaia:***@smtp.example.org:465',
    },
    MAIL_FROM: { schema: z.string().default('Gaia <no-reply@localhost>'), description: 'Sender (From) of verification and invitation mail.' },
  },
  web: {
    WEB_DIST_DIR: { schema: z.string().optional(), description: 'Folder of the built web app served at / (default dist/apps/web).' },
  },
  edge: {
    UPLOAD_MEMORY_BUDGET_MB: {
      schema: z.coerce.number().int().min(1).default(256),
      description:
        'Memory budget of the uploads in flight per gateway process (multipart bodies are parsed in memory): each upload reserves its declared size before its body is read; past the budget uploads are refused 503 with Retry-After (one upload larger than the budget still runs when no other is in flight). Each account has at most 2 uploads in flight (429). The pod memory limit must cover the larger of this budget and one maximum upload (about 552 MiB: 20 files of 25 MiB plus form fields), plus the process baseline (about 256 MiB); the Helm chart gives the gateway 1Gi (`components.gateway.resources`).',
    },
  },
} satisfies Record<string, Record<string, VariableSpec>>;

export type VariableGroup = keyof typeof VARIABLE_GROUPS;
