/**
 * A small OpenSearch speaking the real REST wire protocol (node:http, port 0), for tests on a machine
 * without OpenSearch. It implements the subset Gaia uses and validates requests against the documented
 * formats, answering with OpenSearch-shaped errors when a request is malformed:
 *
 * - `PUT /_index_template/<name>` (composable template: index_patterns + template.settings/mappings),
 *   `GET /_index_template/<name>`, `DELETE /_index_template/<name>`
 * - `PUT|GET|DELETE /_search/pipeline/<id>` (`phase_results_processors` with `normalization-processor`)
 * - `POST /_bulk`, `POST /<index>/_bulk` (NDJSON, `application/x-ndjson`, trailing newline, action/metadata
 *   lines `index|create|delete`, `_routing.required` honoured, strict mappings and knn dimensions checked)
 * - `POST /<index>/_search` (bool/match/term/terms/match_all/knn/hybrid; BM25 scoring; routing → shard;
 *   hybrid only through a search pipeline with a normalization processor whose weights match the sub-queries)
 * - `POST /<index>/_delete_by_query`, `POST /_refresh`, `POST /<index>/_refresh`, `DELETE /<index>`
 *
 * Writes are invisible to search until a refresh (`?refresh=true|wait_for` or `_refresh`), as in OpenSearch.
 * Every request is recorded in `requests` so that tests can assert exact shapes.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  rawBody: string;
  /** Parsed JSON body, or the array of parsed NDJSON lines for `_bulk`. */
  body: unknown;
}

type Json = Record<string, any>;

interface StoredDoc {
  id: string;
  routing?: string;
  shard: number;
  source: Json;
  version: number;
}

interface IndexState {
  name: string;
  settings: Json;
  mappings: Json;
  shards: number;
  visible: Map<string, StoredDoc>;
  /** Latest state including unrefreshed writes; `null` marks an unrefreshed delete. */
  pending: Map<string, StoredDoc | null>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    reason: string,
  ) {
    super(reason);
  }
}

const BUILTIN_ANALYZERS = new Set(['standard', 'simple', 'whitespace', 'keyword', 'english', 'spanish', 'portuguese', 'french', 'german', 'italian']);
const BUILTIN_FILTERS = new Set(['lowercase', 'asciifolding', 'stop', 'trim', 'unique']);
const FIELD_TYPES = new Set(['keyword', 'text', 'knn_vector', 'integer', 'long', 'float', 'boolean', 'date']);
const SPACE_TYPES = new Set(['l2', 'cosinesimil', 'innerproduct', 'l1', 'linf', 'hamming']);

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

function globToRegExp(pattern: string): RegExp {
  return new RegExp(
    '^' +
      pattern
        .split('*')
        .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*') +
      '$',
  );
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fold(token: string): string {
  return token.normalize('NFD').replace(/\p{M}/gu, '');
}

function standardTokens(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'’]*/gu) ?? [];
}

export class OpenSearchWireDouble {
  readonly requests: RecordedRequest[] = [];
  readonly templates = new Map<string, Json>();
  readonly pipelines = new Map<string, Json>();
  readonly indices = new Map<string, IndexState>();
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  /** Requests whose path matches (method optional), in order. */
  find(method: string, pathPattern: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && pathPattern.test(r.path));
  }

  /** Visible documents of an index (after refresh). */
  documents(index: string): { id: string; routing?: string; source: Json }[] {
    return [...(this.indices.get(index)?.visible.values() ?? [])].map((d) => ({ id: d.id, routing: d.routing, source: d.source }));
  }

  // ---------------------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://double');
    const query = Object.fromEntries(url.searchParams.entries());
    const method = req.method ?? 'GET';
    const path = decodeURIComponent(url.pathname);
    const contentType = req.headers['content-type'];
    const record: RecordedRequest = { method, path, query, contentType, rawBody, body: undefined };
    this.requests.push(record);
    try {
      const parts = path.split('/').filter(Boolean);
      const isBulk = parts[parts.length - 1] === '_bulk';
      if (isBulk) {
        record.body = this.parseNdjson(rawBody, contentType);
      } else if (rawBody.length > 0) {
        try {
          record.body = JSON.parse(rawBody);
        } catch {
          throw new HttpError(400, 'parse_exception', 'request body is not valid JSON');
        }
      }
      const [status, payload] = this.route(method, parts, query, record.body);
      this.send(res, status, payload);
    } catch (err) {
      if (err instanceof HttpError) {
        this.send(res, err.status, {
          error: { root_cause: [{ type: err.type, reason: err.message }], type: err.type, reason: err.message },
          status: err.status,
        });
      } else {
        this.send(res, 500, { error: { type: 'double_failure', reason: String(err) }, status: 500 });
      }
    }
  }

  private send(res: ServerResponse, status: number, payload: unknown): void {
    const text = JSON.stringify(payload);
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  private route(method: string, parts: string[], query: Record<string, string>, body: unknown): [number, unknown] {
    if (parts.length === 0 && (method === 'GET' || method === 'HEAD')) {
      return [
        200,
        {
          name: 'double',
          cluster_name: 'gaia-double',
          version: { distribution: 'opensearch', number: '2.19.0' },
          tagline: 'The OpenSearch Project: https://opensearch.org/',
        },
      ];
    }
    if (parts[0] === '_index_template' && parts.length === 2) return this.indexTemplate(method, parts[1], body);
    if (parts[0] === '_search' && parts[1] === 'pipeline' && parts.length === 3) return this.searchPipeline(method, parts[2], body);
    if (parts[0] === '_bulk' && (method === 'POST' || method === 'PUT')) return this.bulk(undefined, query, body as Json[]);
    if (parts[0] === '_refresh' && method === 'POST') return this.refreshAll(undefined);
    if (parts.length === 2 && parts[1] === '_bulk' && (method === 'POST' || method === 'PUT')) return this.bulk(parts[0], query, body as Json[]);
    if (parts.length === 2 && parts[1] === '_refresh' && method === 'POST') return this.refreshAll(parts[0]);
    if (parts.length === 2 && parts[1] === '_search' && (method === 'POST' || method === 'GET')) return this.search(parts[0], query, (body ?? {}) as Json);
    if (parts.length === 2 && parts[1] === '_delete_by_query' && method === 'POST') return this.deleteByQuery(parts[0], query, (body ?? {}) as Json);
    if (parts.length === 1 && method === 'DELETE' && !parts[0].startsWith('_')) {
      const names = this.resolve(parts[0], true);
      for (const n of names) this.indices.delete(n);
      return [200, { acknowledged: true }];
    }
    throw new HttpError(400, 'unsupported_by_double', `${method} /${parts.join('/')} is not implemented by the OpenSearch double`);
  }

  // --- index templates ---------------------------------------------------------------------------

  private indexTemplate(method: string, name: string, body: unknown): [number, unknown] {
    if (method === 'GET') {
      const t = this.templates.get(name);
      if (!t) throw new HttpError(404, 'resource_not_found_exception', `index template matching [${name}] not found`);
      return [200, { index_templates: [{ name, index_template: t }] }];
    }
    if (method === 'DELETE') {
      if (!this.templates.delete(name)) throw new HttpError(404, 'index_template_missing_exception', `index_template [${name}] missing`);
      return [200, { acknowledged: true }];
    }
    if (method !== 'PUT' && method !== 'POST') throw new HttpError(405, 'method_not_allowed', method);
    if (!isObject(body)) throw new HttpError(400, 'parse_exception', 'request body is required');
    const allowed = new Set(['index_patterns', 'template', 'priority', 'version', 'composed_of', '_meta', 'data_stream']);
    for (const key of Object.keys(body)) {
      if (!allowed.has(key)) throw new HttpError(400, 'x_content_parse_exception', `[index_template] unknown field [${key}]`);
    }
    if (!Array.isArray(body.index_patterns) || body.index_patterns.length === 0 || !body.index_patterns.every((p: unknown) => typeof p === 'string')) {
      throw new HttpError(400, 'action_request_validation_exception', 'Validation Failed: 1: index patterns are missing;');
    }
    if (!isObject(body.template)) throw new HttpError(400, 'x_content_parse_exception', '[index_template] template is required');
    const tpl = body.template;
    for (const key of Object.keys(tpl)) {
      if (!['settings', 'mappings', 'aliases'].includes(key)) throw new HttpError(400, 'x_content_parse_exception', `[template] unknown field [${key}]`);
    }
    this.validateIndexDefinition(isObject(tpl.settings) ? tpl.settings : {}, isObject(tpl.mappings) ? tpl.mappings : {});
    this.templates.set(name, body);
    return [200, { acknowledged: true }];
  }

  private indexSettings(settings: Json): Json {
    // Settings may be nested ({index: {knn: true}}) or flat ({"index.knn": true}).
    const out: Json = { ...(isObject(settings.index) ? settings.index : {}) };
    for (const [k, v] of Object.entries(settings)) if (k.startsWith('index.')) out[k.slice(6)] = v;
    return out;
  }

  private validateIndexDefinition(settings: Json, mappings: Json): void {
    const index = this.indexSettings(settings);
    const analysis: Json = isObject(settings.analysis) ? settings.analysis : isObject(index.analysis) ? index.analysis : {};
    const filters: Json = isObject(analysis.filter) ? analysis.filter : {};
    const analyzers: Json = isObject(analysis.analyzer) ? analysis.analyzer : {};
    const maxNgramDiff = Number(index.max_ngram_diff ?? 1);
    for (const [name, f] of Object.entries(filters)) {
      if (!isObject(f) || typeof f.type !== 'string')
        throw new HttpError(400, 'illegal_argument_exception', `filter [${name}] must specify either an analyzer type, or a tokenizer`);
      if (f.type === 'ngram') {
        const min = Number(f.min_gram ?? 1);
        const max = Number(f.max_gram ?? 2);
        if (max - min > maxNgramDiff) {
          throw new HttpError(
            400,
            'illegal_argument_exception',
            `The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [${maxNgramDiff}] but was [${max - min}]. This limit can be set by changing the [index.max_ngram_diff] index level setting.`,
          );
        }
      }
    }
    for (const [name, a] of Object.entries(analyzers)) {
      if (!isObject(a)) throw new HttpError(400, 'illegal_argument_exception', `analyzer [${name}] must be an object`);
      if ((a.type ?? 'custom') === 'custom' && typeof a.tokenizer !== 'string') {
        throw new HttpError(400, 'illegal_argument_exception', `analyzer [${name}] must specify either an analyzer type, or a tokenizer`);
      }
      for (const f of (a.filter ?? []) as string[]) {
        if (!BUILTIN_FILTERS.has(f) && !(f in filters))
          throw new HttpError(400, 'illegal_argument_exception', `Custom Analyzer [${name}] failed to find filter under name [${f}]`);
      }
    }
    const hasKnn = this.validateProperties(isObject(mappings.properties) ? mappings.properties : {}, analyzers, '');
    if (hasKnn && index.knn !== true && index.knn !== 'true') {
      throw new HttpError(400, 'mapper_parsing_exception', 'Failed to parse mapping: knn_vector fields need index.knn set to true');
    }
    if (mappings.dynamic !== undefined && !['strict', true, false, 'true', 'false', 'strict_allow_templates'].includes(mappings.dynamic)) {
      throw new HttpError(400, 'mapper_parsing_exception', `Failed to parse mapping: unknown dynamic value [${mappings.dynamic}]`);
    }
  }

  private validateProperties(properties: Json, analyzers: Json, prefix: string): boolean {
    let hasKnn = false;
    for (const [name, field] of Object.entries(properties)) {
      const path = prefix + name;
      if (!isObject(field) || typeof field.type !== 'string' || !FIELD_TYPES.has(field.type)) {
        throw new HttpError(
          400,
          'mapper_parsing_exception',
          `Failed to parse mapping: No handler for type [${isObject(field) ? field.type : field}] declared on field [${path}]`,
        );
      }
      if (field.type === 'text') {
        for (const key of ['analyzer', 'search_analyzer']) {
          const a = field[key];
          if (a !== undefined && !BUILTIN_ANALYZERS.has(a) && !(a in analyzers)) {
            throw new HttpError(400, 'mapper_parsing_exception', `Failed to parse mapping: analyzer [${a}] has not been configured in mappings`);
          }
        }
        if (field.similarity !== undefined && !['BM25', 'boolean'].includes(field.similarity)) {
          throw new HttpError(400, 'mapper_parsing_exception', `Failed to parse mapping: Unknown Similarity type [${field.similarity}] for field [${path}]`);
        }
      }
      if (field.type === 'knn_vector') {
        hasKnn = true;
        if (!Number.isInteger(field.dimension) || field.dimension < 1 || field.dimension > 16000) {
          throw new HttpError(
            400,
            'mapper_parsing_exception',
            `Failed to parse mapping: Dimension value must be an integer between 1 and 16000 for field [${path}]`,
          );
        }
        const m = field.method;
        if (m !== undefined) {
          if (!isObject(m) || !['hnsw', 'ivf'].includes(m.name))
            throw new HttpError(400, 'mapper_parsing_exception', `Failed to parse mapping: invalid method for [${path}]`);
          if (m.engine !== undefined && !['lucene', 'faiss', 'nmslib'].includes(m.engine))
            throw new HttpError(400, 'mapper_parsing_exception', `Failed to parse mapping: invalid engine [${m.engine}]`);
          if (m.space_type !== undefined && !SPACE_TYPES.has(m.space_type))
            throw new HttpError(400, 'mapper_parsing_exception', `Failed to parse mapping: invalid space_type [${m.space_type}]`);
          for (const p of Object.keys(m.parameters ?? {})) {
            if (!['m', 'ef_construction', 'encoder', 'nlist', 'nprobes'].includes(p))
              throw new HttpError(400, 'mapper_parsing_exception', `Failed to parse mapping: invalid method parameter [${p}]`);
          }
        }
      }
      if (isObject(field.fields)) {
        if (this.validateProperties(field.fields, analyzers, path + '.')) hasKnn = true;
      }
    }
    return hasKnn;
  }

  // --- search pipelines --------------------------------------------------------------------------

  private searchPipeline(method: string, id: string, body: unknown): [number, unknown] {
    if (method === 'GET') {
      const p = this.pipelines.get(id);
      if (!p) throw new HttpError(404, 'resource_not_found_exception', `Search pipeline [${id}] not found`);
      return [200, { [id]: p }];
    }
    if (method === 'DELETE') {
      if (!this.pipelines.delete(id)) throw new HttpError(404, 'resource_not_found_exception', `Search pipeline [${id}] not found`);
      return [200, { acknowledged: true }];
    }
    if (method !== 'PUT') throw new HttpError(405, 'method_not_allowed', method);
    if (!isObject(body)) throw new HttpError(400, 'parse_exception', 'request body is required');
    for (const key of Object.keys(body)) {
      if (!['description', 'request_processors', 'response_processors', 'phase_results_processors', 'version'].includes(key)) {
        throw new HttpError(400, 'parse_exception', `pipeline [${id}] unknown field [${key}]`);
      }
    }
    for (const processor of (body.phase_results_processors ?? []) as unknown[]) {
      if (!isObject(processor) || Object.keys(processor).length !== 1) throw new HttpError(400, 'parse_exception', 'a processor must have exactly one type');
      const [type, config] = Object.entries(processor)[0];
      if (type !== 'normalization-processor' && type !== 'score-ranker-processor') {
        throw new HttpError(400, 'illegal_argument_exception', `Invalid processor type ${type}`);
      }
      if (type === 'normalization-processor') this.validateNormalization(config);
    }
    this.pipelines.set(id, body);
    return [200, { acknowledged: true }];
  }

  private validateNormalization(config: unknown): void {
    if (!isObject(config)) throw new HttpError(400, 'parse_exception', 'normalization-processor config must be an object');
    const technique = config.normalization?.technique ?? 'min_max';
    if (!['min_max', 'l2', 'z_score'].includes(technique))
      throw new HttpError(400, 'illegal_argument_exception', `provided normalization technique [${technique}] is not supported`);
    const combination = config.combination?.technique ?? 'arithmetic_mean';
    if (!['arithmetic_mean', 'geometric_mean', 'harmonic_mean'].includes(combination)) {
      throw new HttpError(400, 'illegal_argument_exception', `provided combination technique [${combination}] is not supported`);
    }
    const weights = config.combination?.parameters?.weights;
    if (weights !== undefined) {
      if (!Array.isArray(weights) || !weights.every((w) => typeof w === 'number' && w >= 0 && w <= 1)) {
        throw new HttpError(400, 'illegal_argument_exception', 'all weights must be numbers in the range [0.0, 1.0]');
      }
      const sum = weights.reduce((a: number, b: number) => a + b, 0);
      if (Math.abs(sum - 1) > 0.0005)
        throw new HttpError(400, 'illegal_argument_exception', `sum of weights for combination must be equal to 1.0, but was ${sum}`);
    }
  }

  // --- indices and documents ---------------------------------------------------------------------

  private resolve(expression: string, allowMissing: boolean): string[] {
    const out = new Set<string>();
    for (const part of expression.split(',')) {
      if (part.includes('*')) {
        const re = globToRegExp(part);
        for (const name of this.indices.keys()) if (re.test(name)) out.add(name);
      } else if (this.indices.has(part)) {
        out.add(part);
      } else if (!allowMissing) {
        throw new HttpError(404, 'index_not_found_exception', `no such index [${part}]`);
      }
    }
    return [...out];
  }

  private autoCreate(name: string): IndexState {
    const existing = this.indices.get(name);
    if (existing) return existing;
    const matching = [...this.templates.values()]
      .filter((t) => (t.index_patterns as string[]).some((p) => globToRegExp(p).test(name)))
      .sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0));
    const tpl: Json = matching[0]?.template ?? {};
    const settings: Json = tpl.settings ?? {};
    const mappings: Json = tpl.mappings ?? {};
    const state: IndexState = {
      name,
      settings,
      mappings,
      shards: Number(this.indexSettings(settings).number_of_shards ?? 1),
      visible: new Map(),
      pending: new Map(),
    };
    this.indices.set(name, state);
    return state;
  }

  private parseNdjson(raw: string, contentType: string | undefined): Json[] {
    if (!contentType || !/application\/(vnd\.opensearch\+)?x-ndjson/.test(contentType)) {
      throw new HttpError(406, 'content_type_exception', `Content-Type header [${contentType}] is not supported for _bulk; use application/x-ndjson`);
    }
    if (!raw.endsWith('\n')) throw new HttpError(400, 'illegal_argument_exception', 'The bulk request must be terminated by a newline [\\n]');
    const lines = raw.split('\n');
    lines.pop();
    return lines.map((line, i) => {
      try {
        return JSON.parse(line) as Json;
      } catch {
        throw new HttpError(400, 'x_content_parse_exception', `line [${i + 1}]: malformed JSON`);
      }
    });
  }

  private bulk(pathIndex: string | undefined, query: Record<string, string>, lines: Json[]): [number, unknown] {
    const items: Json[] = [];
    let errors = false;
    const touched = new Set<IndexState>();
    for (let i = 0; i < lines.length; i++) {
      const action = lines[i];
      const keys = Object.keys(action);
      if (keys.length !== 1 || !['index', 'create', 'delete', 'update'].includes(keys[0])) {
        throw new HttpError(
          400,
          'illegal_argument_exception',
          `Malformed action/metadata line [${i + 1}], expected one of [create, delete, index, update] but found [${keys.join(',')}]`,
        );
      }
      const op = keys[0];
      const meta = action[op] as Json;
      for (const k of Object.keys(meta)) {
        if (
          !['_index', '_id', 'routing', 'if_seq_no', 'if_primary_term', 'version', 'version_type', 'pipeline', 'require_alias', 'retry_on_conflict'].includes(k)
        ) {
          throw new HttpError(400, 'illegal_argument_exception', `Action/metadata line [${i + 1}] contains an unknown parameter [${k}]`);
        }
      }
      const indexName = meta._index ?? pathIndex;
      if (!indexName) throw new HttpError(400, 'action_request_validation_exception', 'Validation Failed: 1: index is missing;');
      let doc: Json | undefined;
      if (op !== 'delete') {
        doc = lines[++i];
        if (!isObject(doc)) throw new HttpError(400, 'illegal_argument_exception', `line [${i + 1}]: a document is expected after [${op}]`);
      }
      if (op === 'update') throw new HttpError(400, 'unsupported_by_double', 'bulk update is not implemented by the double');
      const routing: string | undefined = meta.routing ?? query.routing;
      const state = this.autoCreate(indexName);
      touched.add(state);
      const id: string = meta._id ?? `auto-${hash(String(Math.random()))}`;
      const fail = (status: number, type: string, reason: string) => {
        errors = true;
        items.push({ [op]: { _index: indexName, _id: id, status, error: { type, reason, index: indexName } } });
      };
      if (state.mappings._routing?.required && routing === undefined) {
        fail(400, 'routing_missing_exception', `routing is required for [${indexName}]/[${id}]`);
        continue;
      }
      const current = state.pending.has(id) ? state.pending.get(id) : state.visible.get(id);
      if (op === 'delete') {
        state.pending.set(id, null);
        items.push({ delete: { _index: indexName, _id: id, result: current ? 'deleted' : 'not_found', status: current ? 200 : 404 } });
        continue;
      }
      if (op === 'create' && current) {
        fail(409, 'version_conflict_engine_exception', `[${id}]: version conflict, document already exists`);
        continue;
      }
      const problem = this.checkDocument(state, doc!);
      if (problem) {
        fail(400, problem[0], problem[1]);
        continue;
      }
      const stored: StoredDoc = { id, routing, shard: hash(routing ?? id) % state.shards, source: doc!, version: (current?.version ?? 0) + 1 };
      state.pending.set(id, stored);
      items.push({ [op]: { _index: indexName, _id: id, _version: stored.version, result: current ? 'updated' : 'created', status: current ? 200 : 201 } });
    }
    if (query.refresh === 'true' || query.refresh === 'wait_for' || query.refresh === '') for (const s of touched) this.applyPending(s);
    return [200, { took: 1, errors, items }];
  }

  private checkDocument(state: IndexState, doc: Json): [string, string] | undefined {
    const properties: Json = state.mappings.properties ?? {};
    for (const [field, value] of Object.entries(doc)) {
      const mapping = properties[field];
      if (!mapping) {
        if (state.mappings.dynamic === 'strict')
          return ['strict_dynamic_mapping_exception', `mapping set to strict, dynamic introduction of [${field}] within [_doc] is not allowed`];
        continue;
      }
      if (mapping.type === 'knn_vector') {
        if (!Array.isArray(value) || !value.every((x) => typeof x === 'number' && Number.isFinite(x))) {
          return ['mapper_parsing_exception', `failed to parse field [${field}] of type [knn_vector]`];
        }
        if (value.length !== mapping.dimension) {
          return [
            'mapper_parsing_exception',
            `failed to parse field [${field}] of type [knn_vector] in document. Vector dimension mismatch. Expected: ${mapping.dimension}, Given: ${value.length}`,
          ];
        }
        if (mapping.method?.space_type === 'cosinesimil' && value.every((x) => x === 0)) {
          return ['mapper_parsing_exception', `zero vector is not supported when space type is [cosinesimil]`];
        }
      } else if ((mapping.type === 'text' || mapping.type === 'keyword') && typeof value !== 'string') {
        return ['mapper_parsing_exception', `failed to parse field [${field}] of type [${mapping.type}]`];
      }
    }
    return undefined;
  }

  private applyPending(state: IndexState): void {
    for (const [id, doc] of state.pending) {
      if (doc === null) state.visible.delete(id);
      else state.visible.set(id, doc);
    }
    state.pending.clear();
  }

  private refreshAll(expression: string | undefined): [number, unknown] {
    const names = expression ? this.resolve(expression, true) : [...this.indices.keys()];
    for (const n of names) this.applyPending(this.indices.get(n)!);
    return [200, { _shards: { total: names.length, successful: names.length, failed: 0 } }];
  }

  // --- queries -----------------------------------------------------------------------------------

  private fieldMapping(state: IndexState, field: string): Json | undefined {
    const [base, sub] = field.split('.');
    const m = state.mappings.properties?.[base];
    return sub ? m?.fields?.[sub] : m;
  }

  private analyze(state: IndexState, field: string, text: string): string[] {
    const mapping = this.fieldMapping(state, field);
    if (!mapping || mapping.type === 'keyword') return [text];
    const analyzerName: string = mapping.analyzer ?? 'standard';
    const analysis: Json = state.settings.analysis ?? this.indexSettings(state.settings).analysis ?? {};
    const custom: Json | undefined = analysis.analyzer?.[analyzerName];
    let tokens = standardTokens(text).map((t) => t.toLowerCase());
    if (!custom) return BUILTIN_ANALYZERS.has(analyzerName) && analyzerName !== 'standard' ? tokens.map(fold) : tokens;
    tokens = standardTokens(text);
    for (const filterName of (custom.filter ?? []) as string[]) {
      const def: Json | undefined = analysis.filter?.[filterName];
      if (filterName === 'lowercase') tokens = tokens.map((t) => t.toLowerCase());
      else if (filterName === 'asciifolding') tokens = tokens.map(fold);
      else if (def?.type === 'ngram') {
        const min = Number(def.min_gram ?? 1);
        const max = Number(def.max_gram ?? 2);
        tokens = tokens.flatMap((t) => {
          const grams: string[] = [];
          const chars = [...t];
          for (let i = 0; i < chars.length; i++) for (let n = min; n <= max && i + n <= chars.length; n++) grams.push(chars.slice(i, i + n).join(''));
          return grams;
        });
      }
    }
    return tokens;
  }

  private fieldValue(doc: Json, field: string): unknown {
    return doc[field.split('.')[0]];
  }

  /** Returns matching docs with scores. `candidates` are the docs the query may see (routing already applied). */
  private evaluate(state: IndexState, q: Json, candidates: StoredDoc[]): Map<StoredDoc, number> {
    if (!isObject(q) || Object.keys(q).length !== 1) throw new HttpError(400, 'parsing_exception', 'query malformed, must have exactly one query type');
    const [type, spec] = Object.entries(q)[0] as [string, any];
    const out = new Map<StoredDoc, number>();
    switch (type) {
      case 'match_all':
        for (const d of candidates) out.set(d, 1);
        return out;
      case 'term':
      case 'terms': {
        const entries = Object.entries(spec).filter(([k]) => k !== 'boost');
        if (entries.length !== 1) throw new HttpError(400, 'parsing_exception', `[${type}] query doesn't support multiple fields`);
        const [field, raw] = entries[0] as [string, any];
        const values: unknown[] = type === 'terms' ? raw : [isObject(raw) ? raw.value : raw];
        if (!Array.isArray(values)) throw new HttpError(400, 'parsing_exception', '[terms] query requires an array of values');
        for (const d of candidates) if (values.includes(this.fieldValue(d.source, field))) out.set(d, 1);
        return out;
      }
      case 'match': {
        const entries = Object.entries(spec);
        if (entries.length !== 1) throw new HttpError(400, 'parsing_exception', "[match] query doesn't support multiple fields");
        const [field, raw] = entries[0] as [string, any];
        const text = isObject(raw) ? raw.query : raw;
        if (typeof text !== 'string') throw new HttpError(400, 'parsing_exception', '[match] requires query text');
        for (const key of Object.keys(isObject(raw) ? raw : {})) {
          if (!['query', 'boost', 'operator', 'analyzer', 'fuzziness', 'minimum_should_match'].includes(key))
            throw new HttpError(400, 'parsing_exception', `[match] query does not support [${key}]`);
        }
        const boost = isObject(raw) && typeof raw.boost === 'number' ? raw.boost : 1;
        return this.bm25(state, field, this.analyze(state, field, text), candidates, boost);
      }
      case 'bool': {
        for (const key of Object.keys(spec)) {
          if (!['must', 'should', 'filter', 'must_not', 'minimum_should_match', 'boost'].includes(key))
            throw new HttpError(400, 'parsing_exception', `[bool] query does not support [${key}]`);
        }
        const list = (v: unknown): Json[] => (v === undefined ? [] : Array.isArray(v) ? v : [v as Json]);
        let pool = candidates;
        for (const f of list(spec.filter)) {
          const m = this.evaluate(state, f, pool);
          pool = pool.filter((d) => m.has(d));
        }
        for (const f of list(spec.must_not)) {
          const m = this.evaluate(state, f, pool);
          pool = pool.filter((d) => !m.has(d));
        }
        const must = list(spec.must).map((c) => this.evaluate(state, c, pool));
        const should = list(spec.should).map((c) => this.evaluate(state, c, pool));
        const minShould = spec.minimum_should_match ?? (must.length === 0 && list(spec.filter).length === 0 ? 1 : 0);
        for (const d of pool) {
          if (!must.every((m) => m.has(d))) continue;
          const matched = should.filter((m) => m.has(d));
          if (matched.length < minShould) continue;
          const score = must.reduce((s, m) => s + m.get(d)!, 0) + matched.reduce((s, m) => s + m.get(d)!, 0);
          out.set(d, must.length + should.length === 0 ? 0 : score);
        }
        return out;
      }
      case 'knn': {
        const entries = Object.entries(spec);
        if (entries.length !== 1) throw new HttpError(400, 'parsing_exception', '[knn] query requires exactly one field');
        const [field, raw] = entries[0] as [string, any];
        const mapping = this.fieldMapping(state, field);
        if (mapping?.type !== 'knn_vector') throw new HttpError(400, 'illegal_argument_exception', `Field '${field}' is not knn_vector type.`);
        for (const key of Object.keys(raw)) {
          if (!['vector', 'k', 'filter', 'boost', 'min_score', 'max_distance', 'method_parameters'].includes(key))
            throw new HttpError(400, 'parsing_exception', `[knn] unknown token [${key}]`);
        }
        if (!Array.isArray(raw.vector)) throw new HttpError(400, 'parsing_exception', '[knn] requires a vector');
        if (raw.vector.length !== mapping.dimension)
          throw new HttpError(
            400,
            'illegal_argument_exception',
            `Query vector has invalid dimension: ${raw.vector.length}. Dimension should be: ${mapping.dimension}`,
          );
        if (!Number.isInteger(raw.k) || raw.k < 1) throw new HttpError(400, 'illegal_argument_exception', '[knn] requires k > 0');
        let pool = candidates.filter((d) => Array.isArray(d.source[field]));
        if (raw.filter !== undefined) {
          const m = this.evaluate(state, raw.filter, pool);
          pool = pool.filter((d) => m.has(d));
        }
        const scored = pool.map((d) => [d, this.vectorScore(mapping.method?.space_type ?? mapping.space_type ?? 'l2', raw.vector, d.source[field])] as const);
        scored.sort((a, b) => b[1] - a[1]);
        for (const [d, s] of scored.slice(0, raw.k)) out.set(d, s);
        return out;
      }
      case 'hybrid':
        throw new HttpError(400, 'illegal_argument_exception', 'hybrid query must be a top-level query and cannot be wrapped into other queries');
      default:
        throw new HttpError(400, 'parsing_exception', `unknown query [${type}]`);
    }
  }

  private vectorScore(space: string, a: number[], b: number[]): number {
    if (space === 'cosinesimil') {
      let dot = 0;
      let na = 0;
      let nb = 0;
      for (let i = 0; i < a.length; i++) {
        dot += a[i] * b[i];
        na += a[i] * a[i];
        nb += b[i] * b[i];
      }
      return (1 + dot / (Math.sqrt(na) * Math.sqrt(nb))) / 2;
    }
    let dist = 0;
    for (let i = 0; i < a.length; i++) dist += (a[i] - b[i]) ** 2;
    return 1 / (1 + dist);
  }

  private bm25(state: IndexState, field: string, terms: string[], candidates: StoredDoc[], boost: number): Map<StoredDoc, number> {
    const all = [...state.visible.values()];
    const tokenized = new Map<StoredDoc, string[]>();
    const tokensOf = (d: StoredDoc) => {
      let t = tokenized.get(d);
      if (!t) {
        const v = this.fieldValue(d.source, field);
        t = typeof v === 'string' ? this.analyze(state, field, v) : [];
        tokenized.set(d, t);
      }
      return t;
    };
    const avgLen = all.reduce((s, d) => s + tokensOf(d).length, 0) / Math.max(1, all.length);
    const out = new Map<StoredDoc, number>();
    const uniqueTerms = [...new Set(terms)];
    const df = new Map(uniqueTerms.map((t) => [t, all.filter((d) => tokensOf(d).includes(t)).length]));
    for (const d of candidates) {
      const tokens = tokensOf(d);
      let score = 0;
      for (const t of uniqueTerms) {
        const tf = tokens.filter((x) => x === t).length;
        if (tf === 0) continue;
        const n = df.get(t)!;
        const idf = Math.log(1 + (all.length - n + 0.5) / (n + 0.5));
        score += idf * ((tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * tokens.length) / Math.max(avgLen, 1e-9))));
      }
      if (score > 0) out.set(d, score * boost);
    }
    return out;
  }

  private search(expression: string, query: Record<string, string>, body: Json): [number, unknown] {
    for (const key of Object.keys(body)) {
      if (!['size', 'from', 'query', '_source', 'track_total_hits', 'highlight', 'explain'].includes(key)) {
        throw new HttpError(400, 'parsing_exception', `Unknown key for a START_OBJECT in [${key}].`);
      }
    }
    const ignoreUnavailable = query.ignore_unavailable === 'true';
    const names = this.resolve(expression, ignoreUnavailable);
    const size = body.size ?? 10;
    const q: Json = body.query ?? { match_all: {} };
    const isHybrid = isObject(q) && 'hybrid' in q;
    let pipeline: Json | undefined;
    if (query.search_pipeline !== undefined) {
      pipeline = this.pipelines.get(query.search_pipeline);
      if (!pipeline) throw new HttpError(404, 'resource_not_found_exception', `Pipeline ${query.search_pipeline} is not defined`);
    }
    const scored: { index: string; doc: StoredDoc; score: number }[] = [];
    for (const name of names) {
      const state = this.indices.get(name)!;
      const candidates = this.routed(state, query.routing);
      const result = isHybrid ? this.hybrid(state, q.hybrid, candidates, pipeline) : this.evaluate(state, q, candidates);
      for (const [doc, score] of result) scored.push({ index: name, doc, score });
    }
    scored.sort((a, b) => b.score - a.score || a.doc.id.localeCompare(b.doc.id));
    const excludes: string[] = isObject(body._source) ? (body._source.excludes ?? []) : [];
    const hits = scored.slice(body.from ?? 0, (body.from ?? 0) + size).map(({ index, doc, score }) => {
      const source = { ...doc.source };
      for (const e of excludes) delete source[e];
      return {
        _index: index,
        _id: doc.id,
        _score: score,
        ...(doc.routing !== undefined ? { _routing: doc.routing } : {}),
        _source: body._source === false ? undefined : source,
      };
    });
    return [
      200,
      {
        took: 1,
        timed_out: false,
        _shards: { total: names.length, successful: names.length, skipped: 0, failed: 0 },
        hits: { total: { value: scored.length, relation: 'eq' }, max_score: hits[0]?._score ?? null, hits },
      },
    ];
  }

  private hybrid(state: IndexState, spec: Json, candidates: StoredDoc[], pipeline: Json | undefined): Map<StoredDoc, number> {
    if (!isObject(spec) || !Array.isArray(spec.queries)) throw new HttpError(400, 'parsing_exception', '[hybrid] requires a queries array');
    for (const key of Object.keys(spec))
      if (!['queries', 'filter', 'pagination_depth'].includes(key)) throw new HttpError(400, 'parsing_exception', `[hybrid] query does not support [${key}]`);
    if (spec.queries.length < 1 || spec.queries.length > 5)
      throw new HttpError(400, 'parsing_exception', 'Number of sub-queries exceeds maximum supported by [hybrid] query');
    const processor = (pipeline?.phase_results_processors ?? []).find((p: Json) => 'normalization-processor' in p)?.['normalization-processor'];
    if (!processor) {
      throw new HttpError(
        400,
        'illegal_argument_exception',
        'hybrid query needs a search pipeline with a normalization-processor (pass ?search_pipeline=<id>)',
      );
    }
    let pool = candidates;
    if (spec.filter !== undefined) {
      const m = this.evaluate(state, spec.filter, pool);
      pool = pool.filter((d) => m.has(d));
    }
    const results = (spec.queries as Json[]).map((sub) => this.evaluate(state, sub, pool));
    const weights: number[] = processor.combination?.parameters?.weights ?? results.map(() => 1 / results.length);
    if (weights.length !== results.length) {
      throw new HttpError(
        400,
        'illegal_argument_exception',
        `number of weights [${weights.length}] must match number of sub-queries [${results.length}] in hybrid query`,
      );
    }
    const normalized = results.map((r) => {
      const values = [...r.values()];
      const min = Math.min(...values);
      const max = Math.max(...values);
      return new Map([...r].map(([d, s]) => [d, max === min ? 1 : (s - min) / (max - min)] as const));
    });
    const out = new Map<StoredDoc, number>();
    const docs = new Set(normalized.flatMap((m) => [...m.keys()]));
    for (const d of docs) {
      let sum = 0;
      let weightSum = 0;
      normalized.forEach((m, i) => {
        weightSum += weights[i];
        sum += weights[i] * (m.get(d) ?? 0);
      });
      out.set(d, weightSum === 0 ? 0 : Math.max(sum / weightSum, 0.001));
    }
    return out;
  }

  /** The visible documents of an index, only those of the shards of `routing` (comma-separated) when it is given. */
  private routed(state: IndexState, routing: string | undefined): StoredDoc[] {
    const docs = [...state.visible.values()];
    if (routing === undefined) return docs;
    const shards = new Set(routing.split(',').map((r) => hash(r) % state.shards));
    return docs.filter((d) => shards.has(d.shard));
  }

  private deleteByQuery(expression: string, query: Record<string, string>, body: Json): [number, unknown] {
    for (const key of Object.keys(body))
      if (!['query', 'max_docs'].includes(key)) throw new HttpError(400, 'parsing_exception', `[delete_by_query] unknown field [${key}]`);
    if (!isObject(body.query)) throw new HttpError(400, 'action_request_validation_exception', 'Validation Failed: 1: query is missing;');
    const names = this.resolve(expression, query.ignore_unavailable === 'true' || expression.includes('*'));
    let deleted = 0;
    for (const name of names) {
      const state = this.indices.get(name)!;
      const candidates = this.routed(state, query.routing);
      for (const d of this.evaluate(state, body.query, candidates).keys()) {
        state.pending.set(d.id, null);
        deleted++;
      }
      if (query.refresh === 'true' || query.refresh === '') this.applyPending(state);
    }
    return [200, { took: 1, timed_out: false, total: deleted, deleted, batches: deleted ? 1 : 0, version_conflicts: 0, noops: 0, failures: [] }];
  }
}
