import fastifyCors from '@fastify/cors';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { BaseError } from '../../shared/runtime/errors.js';
import type { TrustProxy } from '../../shared/runtime/config.js';
import type { Logger } from '../../shared/runtime/logger.js';
import type { Metrics } from '../../shared/runtime/metrics.js';
import type { Store } from '../../shared/store/store.js';
import { z } from 'zod';
import { type ApiKey, type RateLimiter, createRateLimiter } from './auth.js';
import { ApiError, rateLimitBody, unknownKeyBody } from './errors.js';
import { createBatches } from './repo/batches.js';
import { masterchainEnds } from './repo/blocks.js';
import { type Db, type DbCore, createCaches, storeVersion } from './repo/db.js';
import { createResponseCache, responseCacheKey } from './response-cache.js';
import { accountRoutes } from './routes/accounts.js';
import { blockRoutes } from './routes/blocks.js';
import { type MasterchainEnds, NEXT_CURSOR_HEADER, type RequestContext, type RouteDeps } from './routes/context.js';
import { transactionRoutes } from './routes/transactions.js';
import { actionRoutes } from './routes/actions.js';
import { traceRoutes } from './routes/traces.js';
import { CONVERSION_ERROR, conversionErrors, docDefaults, docRequired } from './schemas/common.js';
import { JSON_RPC_PATH, v2Routes } from './routes/v2.js';
import { serverTiming } from './server-timing.js';
import { v2TvmRoutes } from './routes/v2-tvm.js';
import { v3TvmRoutes } from './routes/v3-tvm.js';
import { type GatewayTvmOptions, createGatewayTvm } from './tvm.js';
import { createVersionedReads } from './versioned-reads.js';
import { frameworkErrors, limitJsonDepth } from './plugins/client-input.js';
import { loadShedding } from './plugins/load-shedding.js';
import { JsonPageStream, createJsonPages } from './json-page.js';

/**
 * The gateway: TON Center API v3 (and the v2 block operations) over the store, wire-compatible so that an existing
 * client only changes its base URL. One fastify instance with the zod type provider: the zod schemas of
 * schemas/*.ts validate every request and generate the OpenAPI document (`/api/v3/doc.json`, Swagger UI at
 * `/api/v3/`). One error handler renders TON Center's error bodies and status codes (errors.ts).
 */

/** API version strings sent as `X-API-Version` (the TON Center releases whose wire contract this implements). */
export const API_VERSION = { v3: '1.2.6', v2: '2.1.1' } as const;

/** X-Timeout: per-request store deadline in ms, capped at 3000 (api-v3.md §0.2). */
const MAX_TIMEOUT_MS = 3000;

export interface GatewayAppConfig {
  /** Configured keys (auth.ts `loadApiKeys`); none = every request uses the keyless limit. */
  apiKeys: readonly ApiKey[];
  /** Requests per second per client address without a key; 0 = unlimited. */
  rpsWithoutKey: number;
  /** Print user-friendly addresses with the testnet flag, and the testnet zero state in v2. */
  testnet: boolean;
  /** Read transaction records from the key → value tables first (TONFLOW_STORE_POINT_READS; DbCore.pointReads). */
  pointReads?: boolean;
  /** Entries per content-addressed cache (bodies, account states, tx keys); 0 disables caching. */
  cacheEntries?: number;
  /** TTL of cached address book entries, ms; 0 disables that cache. */
  addressBookTtlMs?: number;
  /** Transaction records kept in memory, at most; 0 disables the record cache. */
  txRecordCacheEntries?: number;
  /** What the cached records may weigh together, bytes of JSON (repo/records.ts recordWeight); default unbounded. */
  txRecordCacheBytes?: number;
  /** What the cached message bodies and init states may weigh together, bytes of JSON; default unbounded. */
  contentCacheBytes?: number;
  /** How long a record without trace_id is reused, ms (the trace stage adds trace_id later). */
  txRecordTtlMs?: number;
  /** Whole responses kept while the store is unchanged (response-cache.ts); 0 disables. Default 10,000. */
  responseCacheEntries?: number;
  /** Memory for cached responses, bytes. Default 256 MiB. */
  responseCacheBytes?: number;
  /** How often the gateway checks whether the store changed, ms: the most a cached answer lags. Default 500. */
  responseCacheCheckMs?: number;
  /**
   * Point reads of one kind running at once; requests arriving meanwhile share the next one (repo/batcher.ts).
   * Default 1, what embedded mode wants (chdb runs one statement at a time); a server can take more.
   */
  readsInFlight?: number;
  /** Load shedding (plugins/load-shedding.ts): a request for more rows than this is heavy. Default 100. */
  heavyRows?: number;
  /** Heavy requests served at once. Default 1. */
  heavyInFlight?: number;
  /** Heavy requests waiting for a slot; more are refused with 503. Default 32. */
  heavyQueue?: number;
  /** Response bytes being sent at once beyond which heavy requests are refused with 503. Default 64 MiB. */
  responseBytesInFlight?: number;
  /** Check every response against its zod schema before sending it (tests; costs CPU). */
  validateResponses?: boolean;
  /**
   * Which X-Forwarded-For entries give the client address (TONFLOW_TRUST_PROXY): a number of proxy hops, or the
   * proxies' addresses/CIDRs; false (default): the peer address. Never "every hop": a client would pick its own
   * address, and with it a fresh keyless rate-limit budget per request.
   */
  trustProxy?: TrustProxy;
}

export interface BuildAppOptions {
  store: Store;
  logger: Logger;
  metrics: Metrics;
  config: GatewayAppConfig;
  /** The TVM for runGetMethod, estimateFee and sending (tvm.ts); without it those answer 503. */
  tvm?: GatewayTvmOptions;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Status for store failures of this route (TON Center answers 422 on some endpoints). */
    storeErrorStatus?: number;
  }
}

/** API reads whose answers depend only on the request and the store (response-cache.ts). */
const CACHEABLE = /^\/api\/v[23]\//;

/** Paths that are documentation, not API: never rate limited, never counted against a key. */
function isDocs(url: string): boolean {
  return url === '/' || url === '/healthcheck' || url === '/api/v3' || url.startsWith('/api/v3/static') || /^\/api\/v3\/(doc\.json|json|yaml|index\.html|)$/.test(url);
}

/** Go's strconv.ParseBool for the control headers; anything else counts as false. */
function truthy(v: unknown): boolean {
  return typeof v === 'string' && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v);
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function queryValue(req: FastifyRequest, name: string): string | undefined {
  const q = req.query as Record<string, unknown> | undefined;
  const v = q?.[name];
  return Array.isArray(v) ? (v[0] as string | undefined) : (v as string | undefined);
}

/** Control headers, each also accepted as a query key; the header wins (api-v3.md §0.2). */
function requestContext(req: FastifyRequest): RequestContext {
  const pick = (h: string, q: string): string | undefined => header(req, h) ?? queryValue(req, q);
  const t = Number(pick('x-timeout', 'x_timeout'));
  return {
    noAddressBook: truthy(pick('x-no-address-book', 'x_no_address_book')),
    noMetadata: truthy(pick('x-no-metadata', 'x_no_metadata')),
    timeoutMs: Number.isFinite(t) && t > 0 ? Math.min(Math.floor(t), MAX_TIMEOUT_MS) : MAX_TIMEOUT_MS,
  };
}

/**
 * The path the router served: the matched route's pattern, else the request path percent-decoded as the router
 * decodes it. Never the raw URL: `/%61pi/v2/…` reaches the `/api/v2/…` route, and must meet its key check and
 * rate limit too.
 */
function servedPath(req: FastifyRequest): string {
  const route = req.routeOptions.url;
  if (route !== undefined) return route;
  const raw = req.url.split('?', 1)[0]!;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** v2: by the served route, or by the path for requests no route serves (CORS preflights, 404s). */
const isV2 = (req: FastifyRequest): boolean => servedPath(req).startsWith('/api/v2/') || req.url.startsWith('/api/v2/');

/** The error body of the request's API: v2 envelope or v3 `{"error"}`. */
function errorBody(req: FastifyRequest, status: number, message: string): Record<string, unknown> {
  if (!isV2(req)) return { error: message };
  const rpc = req.tf?.jsonRpc;
  return rpc ? { ok: false, error: message, code: status, jsonrpc: '2.0', id: rpc.id } : { ok: false, error: message, code: status };
}

/** The status a zod validation issue carries (ParamError), 422 by default. */
function issueStatus(issue: { params?: Record<string, unknown> }): number {
  const inner = issue.params?.params as { status?: unknown } | undefined;
  return typeof inner?.status === 'number' ? inner.status : 422;
}

/** jsonSchemaTransform, plus the parameter defaults and required flags zod cannot see (schemas/common.ts). */
const documentDefaults: typeof jsonSchemaTransform = (doc) => {
  const out = jsonSchemaTransform(doc);
  const qs = doc.schema?.querystring as z.ZodObject | undefined;
  const json = (out.schema as { querystring?: { properties?: Record<string, Record<string, unknown>>; required?: string[] } } | undefined)?.querystring;
  if (qs instanceof z.ZodObject && json?.properties) {
    const required = new Set(json.required ?? []);
    for (const [key, schema] of Object.entries(qs.shape)) {
      const d = docDefaults.get(schema as z.ZodType);
      if (d !== undefined && json.properties[key]) json.properties[key].default = d;
      if (docRequired.has(schema as z.ZodType)) required.add(key);
      else if (docDefaults.has(schema as z.ZodType)) required.delete(key);
    }
    if (required.size > 0) json.required = [...required];
    else delete json.required;
  }
  return out;
};

/**
 * jsonSchemaTransformObject, with every `nullable` made to admit the `null` the server sends. OpenAPI 3.0.3 (§4.7.24.1,
 * `nullable`) adds null only to the `type` beside it; the other keywords keep refusing it. So zod's nullable object
 * reference `{nullable, allOf: [{$ref}]}` (in_msg, message_content, init_state, masterchain_block_ref) becomes
 * `{nullable, type: object, anyOf: [{$ref}, <null only>]}` (generators still read `nullable`; strict validators find
 * the null branch), and a nullable `enum` (account_status) lists null among its values, as 3.0.3 asks.
 */
const NULL_ONLY = { type: 'object', nullable: true, enum: [null] } as const;
const documentObject: typeof jsonSchemaTransformObject = (input) => {
  const doc = jsonSchemaTransformObject(input);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    for (const v of Object.values(o)) visit(v);
    if (o.nullable !== true) return;
    if (Array.isArray(o.allOf) && o.allOf.length === 1 && o.type === undefined) {
      o.type = 'object';
      o.anyOf = [o.allOf[0], { ...NULL_ONLY, enum: [...NULL_ONLY.enum] }];
      delete o.allOf;
    }
    if (Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...(o.enum as unknown[]), null];
  };
  visit(doc);
  return doc;
};

/**
 * The zod serializer, failing on a key the schema lacks. Zod drops such keys from what it encodes, but without
 * validateResponses (production) the route's object is stringified as it is: a key the tests never see would still
 * reach clients.
 */
const strictSerializerCompiler: typeof serializerCompiler = (route) => {
  const encode = serializerCompiler(route);
  return (data: unknown) => {
    const json = encode(data);
    const extra = extraKeys(JSON.parse(JSON.stringify(data)) as unknown, JSON.parse(json) as unknown, '');
    if (extra.length > 0) throw new Error(`response of ${route.method} ${route.url} has keys its schema lacks: ${extra.join(', ')}`);
    return json;
  };
};

function extraKeys(sent: unknown, encoded: unknown, path: string): string[] {
  if (Array.isArray(sent) && Array.isArray(encoded)) return sent.flatMap((v, i) => extraKeys(v, encoded[i], `${path}[${i}]`));
  if (sent === null || encoded === null || typeof sent !== 'object' || typeof encoded !== 'object') return [];
  const e = encoded as Record<string, unknown>;
  return Object.entries(sent as Record<string, unknown>).flatMap(([k, v]) =>
    Object.hasOwn(e, k) ? extraKeys(v, e[k], `${path}.${k}`) : [`${path}.${k}`],
  );
}

/** The most bytes of a request line and headers, as ton-index-go (api-v3.md §2.1: up to 1000 addresses a request). */
const MAX_REQUEST_HEAD_BYTES = 1 << 20;

/** URLs longer than Node's default header limit are not cached (response-cache.ts). */
const MAX_CACHED_URL = 16 * 1024;

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

/**
 * A request Node cannot parse never reaches a route: answered here, with the `{"error"}` body of every other error
 * (api-v3.md §0.7) instead of Fastify's `{error, message, statusCode}`.
 */
function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  // As Node's own handler: nothing is written into a response already under way on the connection (a pipelined
  // request after a good one), and the connection is closed either way.
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code !== 'ECONNRESET' && socket.writable && !current?.headersSent) {
    const [status, text] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request'];
    const body = JSON.stringify({ error: text });
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    return;
  }
  socket.destroy();
}

/**
 * Fastify's trustProxy for a TONFLOW_TRUST_PROXY value. Addresses go to proxy-addr as they are (an entry is believed
 * only when the hop that wrote it is a listed proxy). A hop count is a function: Fastify refuses plain numbers,
 * because counted hops believe a client that reaches the gateway directly; the setting documents that.
 */
function trustProxyOption(t: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (t === false) return false;
  if (typeof t === 'number') return (_address, hop) => hop < t;
  return [...t];
}

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { store, logger, metrics, config } = opts;
  const log = logger.child({ module: 'gateway' });
  const app = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    // Per-request log lines would cost more than many requests; errors are logged by the error handler.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: trustProxyOption(config.trustProxy ?? false),
    routerOptions: { ignoreTrailingSlash: true },
    // ton-index-go's Fiber reads request lines of up to 1 MiB (ReadBufferSize), so clients send batches of 1000
    // addresses in one URL; Node's default 16 KiB refuses about 215 of them.
    http: { maxHeaderSize: MAX_REQUEST_HEAD_BYTES },
    clientErrorHandler,
    frameworkErrors,
  });
  limitJsonDepth(app);
  app.setValidatorCompiler(validatorCompiler);
  // The zod serializer re-checks each response (encode); by default responses are built to their schema already
  // and only stringified (the tests run with validateResponses on).
  app.setSerializerCompiler(config.validateResponses ? strictSerializerCompiler : () => (data) => JSON.stringify(data));

  const core: DbCore = {
    store,
    testnet: config.testnet,
    pointReads: config.pointReads ?? false,
    caches: createCaches({
      entries: config.cacheEntries ?? 100_000,
      addressBookTtlMs: config.addressBookTtlMs ?? 60_000,
      txRecords: config.txRecordCacheEntries ?? 20_000,
      txRecordTtlMs: config.txRecordTtlMs ?? 60_000,
      txRecordBytes: config.txRecordCacheBytes,
      contentBytes: config.contentCacheBytes,
    }),
  };
  const db: Db = { ...core, batches: createBatches(core, { inFlight: config.readsInFlight ?? 1 }) };
  const responses = createResponseCache({
    entries: config.responseCacheEntries ?? 10_000,
    checkMs: config.responseCacheCheckMs ?? 500,
    ...(config.responseCacheBytes !== undefined ? { maxBytes: config.responseCacheBytes } : {}),
    readVersion: () => storeVersion(db),
    onError: (err) => log.warn({ err }, 'response cache: cannot read the store version; serving without the cache'),
  });
  const heads = createVersionedReads<MasterchainEnds>(() => responses.version(), { entries: 16 });
  const deps: RouteDeps = {
    db,
    // Keyed by deadline as the batchers are (repo/batcher.ts): no request's read runs under another's deadline.
    head: (req) => heads.get(String(req.timeoutMs), () => masterchainEnds(db, req)),
    pages: createJsonPages({
      validate: config.validateResponses ?? false,
      check: (sent, encoded) => {
        const extra = extraKeys(JSON.parse(JSON.stringify(sent)) as unknown, JSON.parse(JSON.stringify(encoded)) as unknown, '');
        if (extra.length > 0) throw new Error(`response has keys its schema lacks: ${extra.join(', ')}`);
      },
    }),
  };
  const limiter: RateLimiter = createRateLimiter({ keys: config.apiKeys, rpsWithoutKey: config.rpsWithoutKey });

  const requests = metrics.histogram({
    name: 'http_request_duration',
    unit: 'seconds',
    help: 'Gateway requests by route and status',
    labels: ['route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  const limited = metrics.counter({ name: 'rate_limited_requests', unit: 'total', help: 'Requests refused by the rate limit (429) or for an unknown key (401)', labels: ['status'] });

  app.decorateRequest('tf', null as unknown as RequestContext);

  await app.register(fastifyCors, {
    origin: '*',
    exposedHeaders: [NEXT_CURSOR_HEADER, 'server-timing', 'x-api-version'],
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'tonflow — TON Center API v3 compatible',
        description:
          'TON Center API v3 (and the v2 block operations) served from the tonflow index. Errors are `{"error": "<message>"}` ' +
          '(v2: `{"ok": false, "error", "code"}`) with TON Center\'s status codes.',
        version: API_VERSION.v3,
      },
      components: {
        securitySchemes: {
          APIKeyHeader: { type: 'apiKey', name: 'X-API-Key', in: 'header' },
          APIKeyQuery: { type: 'apiKey', name: 'api_key', in: 'query' },
        },
      },
      security: [{ APIKeyHeader: [] }, { APIKeyQuery: [] }],
    },
    transform: documentDefaults,
    transformObject: documentObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/v3', staticCSP: false });

  app.addHook('onRequest', async (req, reply) => {
    req.tf = requestContext(req);
    const path = servedPath(req);
    if (!path.startsWith('/api/') || isDocs(path)) return;
    // An empty header is no key: the query's key then counts (auth-limits.md §1, the two forms are equivalent).
    const key = header(req, 'x-api-key') || queryValue(req, 'api_key') || undefined;
    const decision = limiter.admit(key, req.ip);
    if (!decision.ok) {
      limited.inc({ status: String(decision.status) });
      await reply.code(decision.status).send(decision.status === 401 ? unknownKeyBody : rateLimitBody);
    }
  });

  await responses.start();
  app.addHook('onClose', async () => responses.stop());

  // After the rate limit (onRequest) and parameter validation: a cached answer is only ever given to a request
  // that would have been answered.
  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'GET') return;
    const path = servedPath(req);
    if (!CACHEABLE.test(path) || isDocs(path)) return;
    const version = responses.version();
    // A request line as long as ton-index-go allows is served, but not kept: such keys would crowd out the cache.
    if (version === null || req.url.length > MAX_CACHED_URL) return;
    const key = responseCacheKey(req.method, req.url, req.tf.noAddressBook, req.tf.noMetadata, String(req.headers['x-actions-version'] ?? ''));
    const hit = responses.get(key);
    if (hit) {
      for (const [h, v] of Object.entries(hit.headers)) reply.header(h, v);
      reply.header('x-cache', 'hit');
      await reply.type(hit.contentType).send(hit.body);
      return;
    }
    req.tf.cache = { key, version };
  });

  const shed = metrics.counter({ name: 'shed_requests', unit: 'total', help: 'Heavy requests refused with 503 (load shedding)', labels: ['reason'] });
  // After the cache's preHandler: a cached answer costs no slot.
  loadShedding(app, {
    heavyRows: config.heavyRows ?? 100,
    heavyInFlight: config.heavyInFlight ?? 1,
    heavyQueue: config.heavyQueue ?? 32,
    responseBytesInFlight: config.responseBytesInFlight ?? 64 * 1024 * 1024,
    retryAfterS: 1,
    errorBody,
    onShed: (reason) => shed.inc({ reason }),
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const c = req.tf?.cache;
    const page = payload instanceof JsonPageStream ? payload : undefined;
    if (c && reply.statusCode === 200 && (typeof payload === 'string' || page)) {
      const headers: Record<string, string> = {};
      const cursor = reply.getHeader(NEXT_CURSOR_HEADER);
      if (typeof cursor === 'string') headers[NEXT_CURSOR_HEADER] = cursor;
      const body = page ? Buffer.concat(page.pieces, page.bytes) : Buffer.from(payload as string, 'utf8');
      responses.set(c.key, { body, contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'), headers }, c.version);
    }
    reply.header('server-timing', serverTiming(reply.elapsedTime));
    reply.header('x-api-version', isV2(req) ? API_VERSION.v2 : API_VERSION.v3);
    // Node writes the head together with a string body in the body's encoding (UTF-8), which would encode the
    // Server-Timing micro sign's two bytes again; with a Buffer body the head goes out as latin1, byte for byte.
    return typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  });

  app.addHook('onResponse', async (req, reply) => {
    requests.observe({ route: req.routeOptions.url ?? 'unknown', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send(errorBody(req, 404, `cannot ${req.method} ${req.url.split('?', 1)[0]}`));
  });

  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issues = err.validation;
      // TON Center parses parameters (422, or 401 for the v2-style methods) before its query builder rejects
      // limit or sort (500): the first parse error wins, then the first builder error.
      const issue = issues.find((i) => issueStatus(i) < 500) ?? issues[0]!;
      let message = issue.message ?? 'invalid parameter';
      if (message.startsWith(CONVERSION_ERROR)) {
        // One decode pass converts every field: the others that failed are counted in the same text.
        message = conversionErrors(message, issues.filter((i) => i !== issue && i.message?.startsWith(CONVERSION_ERROR)).length);
      }
      return reply.code(issueStatus(issue)).send(errorBody(req, issueStatus(issue), message));
    }
    if (err instanceof ApiError) return reply.code(err.status).send(err.body ?? errorBody(req, err.status, err.message));
    if (err instanceof BaseError && err.code.startsWith('STORE_')) {
      // v2 answers its backend's timeouts with 504 (api-v2.md §1, "liteserver timeout"); the store is that backend here.
      const timeoutMs = req.tf?.timeoutMs ?? MAX_TIMEOUT_MS;
      if (err.code === 'STORE_TIMEOUT' && timeoutMs < MAX_TIMEOUT_MS) {
        // The client chose a deadline shorter than the server's (X-Timeout) and the statement outlived it: what the
        // client asked for, not a failure of the server.
        req.log.info({ url: req.url, timeoutMs }, 'request deadline expired');
        return reply.code(408).send(errorBody(req, 408, `timeout after ${timeoutMs} ms (X-Timeout)`));
      }
      const v2Timeout = isV2(req) && err.code === 'STORE_TIMEOUT';
      const status = v2Timeout ? 504 : (req.routeOptions.config.storeErrorStatus ?? 500);
      req.log.error({ err, url: req.url }, 'store query failed');
      // The C++ v2 server's text for its backend's timeout.
      if (v2Timeout) return reply.code(status).send(errorBody(req, status, 'LITE_SERVER_NETWORK timeout'));
      const what = err.code === 'STORE_TIMEOUT' ? `timeout after ${req.tf?.timeoutMs ?? MAX_TIMEOUT_MS} ms` : err.code;
      return reply.code(status).send(errorBody(req, status, `internal server error: ${what}`));
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    // A JSON-RPC body that is not JSON (or not sent as JSON) is a validation error there, as for its params.
    if (status < 500 && servedPath(req) === JSON_RPC_PATH) {
      if (req.tf) req.tf.jsonRpc ??= { id: null };
      return reply.code(422).send(errorBody(req, 422, `Validation error: ${err.message}`));
    }
    if (status >= 500) {
      req.log.error({ err, url: req.url }, 'request failed');
      return reply.code(500).send(errorBody(req, 500, 'internal server error'));
    }
    return reply.code(status).send(errorBody(req, status, err.message));
  });

  app.get('/healthcheck', { schema: { hide: true } }, async (_req, reply) => reply.type('text/plain; charset=utf-8').send('OK'));
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/api/v3/index.html', 301));
  app.get('/api/v3/index.html', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/api/v3/', 302));
  app.get('/api/v3/doc.json', { schema: { hide: true } }, async () => app.swagger());

  blockRoutes(app, deps);
  transactionRoutes(app, deps);
  accountRoutes(app, deps);
  traceRoutes(app, deps);
  actionRoutes(app, deps);
  const tvm = opts.tvm ? createGatewayTvm(db, opts.tvm, { head: deps.head, version: () => responses.version() }) : undefined;
  v3TvmRoutes(app, deps, tvm);
  v2Routes(app, deps, { testnet: config.testnet, rpc: v2TvmRoutes(app, deps, tvm), tvm, ...(opts.tvm?.source ? { proofs: opts.tvm.source } : {}) });

  await app.ready();
  return app;
}
