/**
 * Configuration: one schema, written as data, read once by a service's composition root (house-style rule 1)
 * and validated all at once (rule 2): every bad key and every violated cross-field rule lands in a single
 * `ConfigError`, so an operator fixes a deployment in one round instead of one key per restart. The result is
 * deeply frozen: nothing below `main.ts` can change configuration behind another module's back.
 *
 * Each field names its environment variable, its CLI flag (if any), its default as the raw text an operator
 * would type, a description and a zod type that turns that text into a value. The same data generates the
 * README's configuration table (`configTable`), so docs and behaviour cannot drift apart.
 */
import { z } from 'zod';
import { ConfigError } from './errors.js';

/** One configuration key. `type` parses the raw text (or `undefined` when unset, for optional keys). */
export interface ConfigField<T extends z.ZodType = z.ZodType> {
  /** Environment variable, e.g. `TONFLOW_PORT`. */
  env: string;
  /** CLI flag without the leading dashes, e.g. `ops-port` for `--ops-port`. */
  flag?: string;
  /** The default as raw text; it is parsed by `type` like any other input, so defaults cannot be invalid silently. */
  default?: string;
  description: string;
  /** Never echoed in error messages; `redactConfig` masks it. */
  secret?: boolean;
  /** A bare `--flag` means `true` (other flags need a value). */
  boolean?: boolean;
  type: T;
}

export type ConfigFields = Record<string, ConfigField>;

/** The parsed values of a set of fields (mutable; `Config` is the frozen view). */
export type ConfigValues<F extends ConfigFields> = { [K in keyof F]: z.output<F[K]['type']> };

/**
 * A cross-field rule. It runs only when every field in `uses` parsed, so it never reports a consequence of an
 * error already reported; `check` returns the complete issue text (start it with the env name it is about).
 */
export interface ConfigRule<F extends ConfigFields> {
  uses: readonly (keyof F & string)[];
  check(values: ConfigValues<F>): string | undefined;
}

/** A configuration schema as data: its fields and cross-field rules (build it with `defineConfig`). */
export interface ConfigSchema<F extends ConfigFields> {
  readonly fields: F;
  readonly rules: readonly ConfigRule<F>[];
}

/** `T` with every property and array readonly, all the way down: the type of a frozen config. */
export type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** What `loadConfig` returns for a schema. */
export type Config<S> = S extends ConfigSchema<infer F> ? DeepReadonly<ConfigValues<F>> : never;

/** Where raw values come from. Flags win over the environment; an empty string counts as unset in both. */
export interface ConfigSources {
  env?: Readonly<Record<string, string | undefined>>;
  /** Output of `parseFlags(...).flags`: names without dashes; `true` for a bare flag. */
  flags?: Readonly<Record<string, string | boolean>>;
}

/** Declares a schema; the identity at runtime, it exists so that TypeScript infers the value types. */
export function defineConfig<F extends ConfigFields>(fields: F, rules: readonly ConfigRule<F>[] = []): ConfigSchema<F> {
  return { fields, rules };
}

// ---------------------------------------------------------------------------------------------------------------
// Field types. Each states what it expects in words; `loadConfig` prefixes the key and appends what it got, so
// every message reads `TONFLOW_PORT: expected a number 1..65535, got "abc"`.
// ---------------------------------------------------------------------------------------------------------------

function parsed<T>(expected: string, parse: (text: string) => T | undefined): z.ZodType<T, string> {
  return z.string().transform((raw, ctx) => {
    const value = parse(raw.trim());
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected ${expected}` });
      return z.NEVER;
    }
    return value;
  });
}

function parseInteger(text: string, min: number, max: number): number | undefined {
  // Number() alone would accept "", "0x10", "1e3" and " 8 ": configuration is decimal digits only.
  if (!/^-?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

function parseUrl(text: string, protocols: readonly string[]): string | undefined {
  if (!URL.canParse(text)) return undefined;
  return protocols.includes(new URL(text).protocol) ? text : undefined;
}

const HOST_PORT = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/** Building blocks for fields; each trims surrounding whitespace (a CRLF `.env` file leaves a `\r`). */
export const configTypes = {
  /** A decimal integer in `min..max`. */
  integer: (min: number, max: number) => parsed(`a number ${min}..${max}`, (t) => parseInteger(t, min, max)),
  /** One of a fixed set of words. */
  oneOf: <const V extends readonly [string, ...string[]]>(values: V) =>
    parsed(`one of ${values.join(' | ')}`, (t) => values.find((v) => v === t) as V[number] | undefined),
  /** Non-empty text, optionally matching `pattern` (`expected` describes it). */
  text: (expected = 'a non-empty value', pattern?: RegExp) =>
    parsed(expected, (t) => (t !== '' && (pattern === undefined || pattern.test(t)) ? t : undefined)),
  /** Any text, untrimmed (passwords may legitimately contain spaces). */
  secret: () => z.string(),
  /** An absolute URL with one of the given protocols (`'http:'`, `'https:'`). */
  url: (protocols: readonly string[] = ['http:', 'https:']) =>
    parsed(`a URL (${protocols.map((p) => p.replace(/:$/, '')).join(' or ')})`, (t) => parseUrl(t, protocols)),
  /** `true|false|1|0|yes|no`. */
  boolean: () =>
    parsed('true or false', (t) => {
      const v = t.toLowerCase();
      if (['true', '1', 'yes'].includes(v)) return true;
      if (['false', '0', 'no'].includes(v)) return false;
      return undefined;
    }),
  /** A comma-separated list of `host:port`, at least one. */
  hostPorts: () =>
    z.string().transform((raw, ctx) => {
      const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
      const bad = items.filter((s) => {
        const m = HOST_PORT.exec(s);
        return m === null || parseInteger(m[1]!, 1, 65535) === undefined;
      });
      if (items.length === 0 || bad.length > 0) {
        const which = bad.length > 0 ? ` (not host:port: ${bad.map((s) => JSON.stringify(s)).join(', ')})` : '';
        ctx.addIssue({ code: 'custom', message: `expected a comma-separated list of host:port${which}` });
        return z.NEVER;
      }
      return items;
    }),
};

// ---------------------------------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------------------------------

interface Raw {
  value: string | undefined;
  /** The name the operator used: `--port`, `TONFLOW_PORT`, or the env name plus "(default)". */
  label: string;
  issue?: string;
}

function rawValue(field: ConfigField, env: ConfigSources['env'], flags: ConfigSources['flags']): Raw {
  const flagValue = field.flag === undefined ? undefined : flags?.[field.flag];
  if (flagValue !== undefined && flagValue !== '') {
    const label = `--${field.flag}`;
    if (typeof flagValue === 'boolean') {
      if (field.boolean) return { value: String(flagValue), label };
      return { value: undefined, label, issue: `${label}: needs a value (${label} VALUE or ${label}=VALUE)` };
    }
    return { value: flagValue, label };
  }
  // Empty env values count as unset: compose files and Helm templates render optional keys as `KEY=`.
  const envValue = env?.[field.env];
  if (envValue !== undefined && envValue !== '') return { value: envValue, label: field.env };
  if (field.default !== undefined) return { value: field.default, label: `${field.env} (default)` };
  return { value: undefined, label: field.env };
}

/**
 * Reads every field of `schema` from `sources` (flags over environment over defaults), validates them and the
 * schema's cross-field rules, and returns the deeply frozen result.
 *
 * @throws ConfigError listing every problem at once: unknown flags, values that do not parse, required keys
 *   that are unset, violated rules.
 * @example
 * const { flags } = parseFlags(argv, configFlags(tonflowConfigSchema));
 * const config = loadConfig(tonflowConfigSchema, { env: process.env, flags });
 */
export function loadConfig<F extends ConfigFields>(
  schema: ConfigSchema<F>,
  sources: ConfigSources = {},
): DeepReadonly<ConfigValues<F>> {
  const issues: string[] = [];
  const fields = Object.entries(schema.fields);
  const knownFlags = new Set(fields.flatMap(([, f]) => (f.flag === undefined ? [] : [f.flag])));
  for (const name of Object.keys(sources.flags ?? {})) {
    if (!knownFlags.has(name)) issues.push(`--${name}: unknown flag`);
  }

  const values: Record<string, unknown> = {};
  const failed = new Set<string>();
  for (const [key, field] of fields) {
    const raw = rawValue(field, sources.env, sources.flags);
    if (raw.issue !== undefined) {
      issues.push(raw.issue);
      failed.add(key);
      continue;
    }
    const result = field.type.safeParse(raw.value);
    if (result.success) {
      values[key] = result.data;
      continue;
    }
    failed.add(key);
    if (raw.value === undefined) {
      const how = field.flag === undefined ? '' : ` (or --${field.flag})`;
      issues.push(`${field.env}: required, set ${field.env}${how}`);
      continue;
    }
    // Secrets are never echoed: error messages end up in logs and CI output.
    const got = field.secret ? '' : `, got ${JSON.stringify(raw.value)}`;
    for (const issue of result.error.issues) issues.push(`${raw.label}: ${issue.message}${got}`);
  }

  for (const rule of schema.rules) {
    if (rule.uses.some((key) => failed.has(key))) continue;
    const issue = rule.check(values as ConfigValues<F>);
    if (issue !== undefined) issues.push(issue);
  }

  if (issues.length > 0) throw new ConfigError(issues);
  return deepFreeze(values) as DeepReadonly<ConfigValues<F>>;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * A copy of `config` fit for a log line: secret fields become `"[redacted]"` and passwords inside URLs
 * (`http://user:pass@host`) are masked.
 */
export function redactConfig<F extends ConfigFields>(
  schema: ConfigSchema<F>,
  config: DeepReadonly<ConfigValues<F>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config as Record<string, unknown>)) {
    if (schema.fields[key]?.secret && value !== undefined) out[key] = '[redacted]';
    else if (typeof value === 'string' && URL.canParse(value) && new URL(value).password !== '') {
      const url = new URL(value);
      url.password = 'redacted';
      out[key] = url.toString();
    } else out[key] = value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// CLI flags
// ---------------------------------------------------------------------------------------------------------------

/** Which flags a command accepts; `booleans` never take the following argument as their value. */
export interface FlagSpec {
  known: readonly string[];
  booleans?: readonly string[];
}

export interface ParsedArgs {
  /** Flag name without dashes → value; `true` for a bare flag. */
  flags: Record<string, string | true>;
  /** Arguments that are not flags, and everything after `--`. */
  positionals: string[];
}

/** The flags a schema declares, for `parseFlags`. */
export function configFlags(schema: { readonly fields: ConfigFields }): FlagSpec {
  const fields = Object.values(schema.fields);
  return {
    known: fields.flatMap((f) => (f.flag === undefined ? [] : [f.flag])),
    booleans: fields.flatMap((f) => (f.flag !== undefined && f.boolean ? [f.flag] : [])),
  };
}

const strip = (name: string): string => name.replace(/^--?/, '');

/**
 * Parses `--key value`, `--key=value` and bare `--flag` (which is `true`; it is also `true` when the next
 * argument is another flag, and `loadConfig` then reports that it needs a value). Names may be given with or
 * without dashes in `spec`.
 *
 * @throws ConfigError listing every unknown flag (with the closest known one), short option and repeated flag.
 */
export function parseFlags(argv: readonly string[], spec: FlagSpec | readonly string[]): ParsedArgs {
  const known = new Set(('known' in spec ? spec.known : spec).map(strip));
  const booleans = new Set(('known' in spec ? (spec.booleans ?? []) : []).map(strip));
  const flags: Record<string, string | true> = {};
  const positionals: string[] = [];
  const issues: string[] = [];

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      // A lone "-" conventionally means stdin; "-x" is a short option we do not have.
      if (arg.startsWith('-') && arg !== '-') issues.push(`${arg}: unknown option (flags are --long-form only)`);
      else positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    let value: string | true;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (!booleans.has(name) && i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) value = argv[++i]!;
    else value = true;

    if (!known.has(name)) {
      const near = closest(name, known);
      issues.push(`--${name}: unknown flag${near === undefined ? '' : ` (did you mean --${near}?)`}`);
    } else if (name in flags) issues.push(`--${name}: given more than once`);
    else flags[name] = value;
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return { flags, positionals };
}

/** The known name within edit distance 2 of `name`, if any: catches `--prot`, `--ops_port`. */
function closest(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

// ---------------------------------------------------------------------------------------------------------------
// The tonflow configuration
// ---------------------------------------------------------------------------------------------------------------

/** Where the follower reads blocks from (ARCHITECTURE.md, "Sources of blocks"). */
export type SourceConfig =
  | { type: 'files'; dir: string }
  | { type: 'liteserver'; network: 'mainnet' | 'testnet' }
  | { type: 'devnet' };

function parseSource(text: string): SourceConfig | undefined {
  if (text === 'devnet') return { type: 'devnet' };
  if (text === 'mainnet' || text === 'testnet') return { type: 'liteserver', network: text };
  if (text.startsWith('files:') && text.length > 'files:'.length) return { type: 'files', dir: text.slice('files:'.length) };
  return undefined;
}

function parseLiteserverConfig(text: string): string | undefined {
  if (text === '') return undefined;
  // Anything with a scheme is a URL and must be one we can fetch; everything else is a file path.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return parseUrl(text, ['http:', 'https:']);
  return text;
}

const { integer, oneOf, text, secret, url, hostPorts, boolean } = configTypes;
const UINT32_MAX = 4_294_967_295;

/** The configuration of every tonflow service: one schema, so all services agree on names and defaults. */
export const tonflowConfigSchema = defineConfig(
  {
    mode: {
      env: 'TONFLOW_MODE',
      flag: 'mode',
      default: 'embedded',
      description:
        'embedded: all stages in one process on an in-process bus; distributed: stages talk through Kafka and store into a ClickHouse server',
      type: oneOf(['embedded', 'distributed']),
    },
    data: {
      env: 'TONFLOW_DATA',
      flag: 'data',
      default: './data',
      description: 'Directory for local state (the embedded chdb database when TONFLOW_CLICKHOUSE is unset)',
      type: text('a directory path'),
    },
    port: {
      env: 'TONFLOW_PORT',
      flag: 'port',
      default: '8080',
      description: 'HTTP port of the gateway (REST API, WebSocket, SSE)',
      type: integer(1, 65535),
    },
    opsPort: {
      env: 'TONFLOW_OPS_PORT',
      flag: 'ops-port',
      default: '9464',
      description: 'HTTP port of /health, /ready and /metrics',
      type: integer(1, 65535),
    },
    opsHost: {
      env: 'TONFLOW_OPS_HOST',
      flag: 'ops-host',
      description:
        'Address the ops server (/health, /ready, /metrics) listens on; unset: TONFLOW_HOST where the service has one (gateway, start), else 0.0.0.0 (every interface, as Kubernetes probes need)',
      type: text('a host name or IP address').optional(),
    },
    source: {
      env: 'TONFLOW_SOURCE',
      flag: 'source',
      default: 'mainnet',
      description: 'Where blocks come from: files:DIR (replay block BOCs), mainnet or testnet (liteservers), devnet (local chain)',
      type: parsed('files:DIR, mainnet, testnet or devnet', parseSource),
    },
    fromSeqno: {
      env: 'TONFLOW_FROM_SEQNO',
      flag: 'from-seqno',
      description: 'Masterchain seqno to start following from; unset: the current head',
      type: integer(1, UINT32_MAX).optional(),
    },
    liteserverConfig: {
      env: 'TONFLOW_LITESERVER_CONFIG',
      flag: 'liteserver-config',
      description: "Global config (file path or URL) listing liteservers; unset: the network's public config",
      type: parsed('a file path or an http(s) URL', parseLiteserverConfig).optional(),
    },
    devnetBlockMs: {
      env: 'TONFLOW_DEVNET_BLOCK_MS',
      flag: 'block-ms',
      default: '1000',
      description: 'devnet: milliseconds between blocks',
      type: integer(50, 3_600_000),
    },
    devnetTraffic: {
      env: 'TONFLOW_DEVNET_TRAFFIC',
      flag: 'devnet-traffic',
      default: 'default',
      description: 'devnet: generated traffic profile (default, transfers, tokens) or none',
      type: oneOf(['default', 'transfers', 'tokens', 'none']),
    },
    devnetTps: {
      env: 'TONFLOW_DEVNET_TPS',
      flag: 'devnet-tps',
      default: '100',
      description: 'devnet: target transactions per second of the generated traffic',
      type: integer(0, 100_000),
    },
    devnetSeed: {
      env: 'TONFLOW_DEVNET_SEED',
      flag: 'devnet-seed',
      description: 'devnet: seed of a new chain (traffic and keys); unset: a fixed default',
      type: text().optional(),
    },
    kafkaBrokers: {
      env: 'TONFLOW_KAFKA_BROKERS',
      flag: 'kafka-brokers',
      description: 'Kafka bootstrap brokers, comma-separated host:port; required in distributed mode',
      type: hostPorts().optional(),
    },
    kafkaClientId: {
      env: 'TONFLOW_KAFKA_CLIENT_ID',
      description: 'Kafka client id; unset: the service name',
      type: text('letters, digits, ".", "_" or "-"', /^[A-Za-z0-9._-]+$/).optional(),
    },
    topicPrefix: {
      env: 'TONFLOW_TOPIC_PREFIX',
      default: 'tonflow',
      description: 'Prefix of every Kafka topic name',
      // Kafka topic names allow [A-Za-z0-9._-] up to 249 characters; leave room for the suffixes.
      type: text('up to 100 letters, digits, ".", "_" or "-"', /^[A-Za-z0-9._-]{1,100}$/),
    },
    partitions: {
      env: 'TONFLOW_PARTITIONS',
      default: '8',
      description: 'Partitions of each topic tonflow creates: the most consumers a stage can use in parallel',
      type: integer(1, 4096),
    },
    clickhouse: {
      env: 'TONFLOW_CLICKHOUSE',
      flag: 'clickhouse',
      description:
        'ClickHouse server URL; unset: ClickHouse in-process (chdb) under TONFLOW_DATA, which only one process can open (distributed deployments set it)',
      type: url().optional(),
    },
    clickhouseDatabase: {
      env: 'TONFLOW_CLICKHOUSE_DATABASE',
      default: 'tonflow',
      description: 'ClickHouse database',
      type: text('an identifier ([A-Za-z_][A-Za-z0-9_]*)', /^[A-Za-z_][A-Za-z0-9_]*$/),
    },
    storeReadConnections: {
      env: 'TONFLOW_STORE_READ_CONNECTIONS',
      default: '1',
      description:
        'Embedded store: ClickHouse sessions for reads besides the one that writes: reads never wait behind an insert, and with more than one they run in parallel (worth it with more than 2 cores); 0 = one session for everything',
      type: integer(0, 32),
    },
    storePointReads: {
      env: 'TONFLOW_STORE_POINT_READS',
      default: 'true',
      description:
        'Also write each transaction as a document (with its messages, bodies and states) to key → value tables (0009_transaction_documents.sql) and read transaction records and hash lookups from them: what lets the transaction endpoints serve 500 req/s uncached at p99 ≤ 25 ms, where the MergeTree tables alone served 210-372 req/s; for about 1.6x the ingest CPU per transaction and 2.7x the disk (bench/RESULTS.md, api and ingest); false: MergeTree tables only; set it for the indexer and the gateway alike',
      type: boolean(),
    },
    clickhouseUser: {
      env: 'TONFLOW_CLICKHOUSE_USER',
      description: "ClickHouse user; unset: the server's default user",
      type: text().optional(),
    },
    clickhousePassword: {
      env: 'TONFLOW_CLICKHOUSE_PASSWORD',
      description: 'ClickHouse password',
      secret: true,
      type: secret().optional(),
    },
    batchMaxRows: {
      env: 'TONFLOW_BATCH_MAX_ROWS',
      default: '120000',
      description: 'Rows at which a stage flushes its batch to ClickHouse',
      type: integer(1, 10_000_000),
    },
    batchMaxMs: {
      env: 'TONFLOW_BATCH_MAX_MS',
      default: '500',
      description: 'Kafka mode: longest a stage waits for a fetch to fill its batch before writing what it has',
      type: integer(1, 600_000),
    },
    logLevel: {
      env: 'TONFLOW_LOG_LEVEL',
      default: 'info',
      description: 'Log level: fatal, error, warn, info, debug, trace or silent',
      type: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    },
    logFormat: {
      env: 'TONFLOW_LOG_FORMAT',
      flag: 'log-format',
      default: 'auto',
      description:
        'Output: json (one JSON log line per event), console (`tonflow start`: a progress line with blocks and transactions per second, the lag and the API URL, and warnings as text; other commands: logs as text), or auto: console when stdout is a terminal, else json',
      type: oneOf(['auto', 'json', 'console']),
    },
    shutdownGraceMs: {
      env: 'TONFLOW_SHUTDOWN_GRACE_MS',
      default: '15000',
      description: "Time to drain and close on SIGTERM before exiting anyway; keep it below the pod's termination grace period",
      type: integer(100, 3_600_000),
    },
  },
  [
    {
      uses: ['mode', 'kafkaBrokers'],
      check: (c) =>
        c.mode === 'distributed' && c.kafkaBrokers === undefined
          ? 'TONFLOW_KAFKA_BROKERS: required when TONFLOW_MODE is distributed (stages talk through Kafka); ' +
            'set TONFLOW_KAFKA_BROKERS or --kafka-brokers to host:port[,host:port...]'
          : undefined,
    },
    {
      uses: ['port', 'opsPort'],
      check: (c) =>
        c.port === c.opsPort
          ? `TONFLOW_OPS_PORT: must differ from TONFLOW_PORT (both are ${c.port}; the API and the ops server each bind one)`
          : undefined,
    },
  ],
);

/** The validated, frozen tonflow configuration. */
export type TonflowConfig = Config<typeof tonflowConfigSchema>;

/**
 * TONFLOW_TRUST_PROXY: `false`; `true` (one hop: the load balancer in front); a number of hops; or the proxies'
 * addresses/CIDRs, comma-separated. Trusting every hop would let a client choose its own address with
 * X-Forwarded-For and so its own keyless rate-limit budget.
 */
export type TrustProxy = false | number | readonly string[];

const PROXY_ADDRESS = /^(?:[0-9.]+|[0-9A-Fa-f:.]+)(?:\/\d{1,3})?$|^(?:loopback|linklocal|uniquelocal)$/;

function parseTrustProxy(text: string): TrustProxy | undefined {
  const v = text.toLowerCase();
  if (['false', '0', 'no'].includes(v)) return false;
  if (['true', 'yes'].includes(v)) return 1;
  if (/^\d+$/.test(v)) return parseInteger(v, 1, 32);
  const items = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  return items.length > 0 && items.every((s) => PROXY_ADDRESS.test(s)) ? items : undefined;
}

/**
 * The gateway's configuration: every tonflow key plus the API's own. `tonflow gateway` and `tonflow start` (which
 * runs the gateway in-process) read it; the follower and indexer never see these keys.
 */
export const gatewayConfigSchema = defineConfig(
  {
    ...tonflowConfigSchema.fields,
    host: {
      env: 'TONFLOW_HOST',
      flag: 'host',
      default: '0.0.0.0',
      description: 'Address the gateway listens on (0.0.0.0: every interface, as Kubernetes probes need)',
      type: text('a host name or IP address'),
    },
    apiKeysFile: {
      env: 'TONFLOW_API_KEYS_FILE',
      flag: 'api-keys-file',
      description: 'JSON file of API keys: [{"key": "...", "rps": 10, "account": "..."}] or {"<key>": rps}; rps 0 = unlimited',
      type: text('a file path').optional(),
    },
    apiKeys: {
      env: 'TONFLOW_API_KEYS',
      description: 'API keys as key:rps[:account], comma-separated (added to the keys file)',
      secret: true,
      type: secret().optional(),
    },
    rpsWithoutKey: {
      env: 'TONFLOW_API_RPS_WITHOUT_KEY',
      flag: 'rps-without-key',
      default: '100',
      description: "Requests per second per client address without an API key (TON Center's hosted keyless limit is 1; a self-hosted default is more generous); 0 = unlimited",
      type: integer(0, 1_000_000),
    },
    trustProxy: {
      env: 'TONFLOW_TRUST_PROXY',
      default: 'false',
      description:
        'Behind load balancers: which X-Forwarded-For entries to believe for the client address (the keyless rate limit is per address). The proxies\' addresses or CIDRs, comma-separated (also loopback, linklocal, uniquelocal), or a number of proxy hops in front of the gateway (true = 1; only where clients cannot reach the gateway except through them); false: the peer address',
      type: parsed('false, true, a number of hops 1..32, or comma-separated proxy addresses/CIDRs', parseTrustProxy),
    },
    apiCacheEntries: {
      env: 'TONFLOW_API_CACHE_ENTRIES',
      default: '100000',
      description: 'Entries of each immutable-data cache of the gateway (message bodies, account states, tx hash keys); 0 disables them',
      type: integer(0, 10_000_000),
    },
    apiCacheMb: {
      env: 'TONFLOW_API_CACHE_MB',
      default: '16',
      description: 'Memory for cached message bodies and init states, MiB, as their JSON text (least recently used go first)',
      type: integer(1, 1_000_000),
    },
    txCacheEntries: {
      env: 'TONFLOW_API_TX_CACHE_ENTRIES',
      default: '20000',
      description: 'Transaction records the gateway keeps in memory, at most (TONFLOW_API_TX_CACHE_MB bounds their size); 0 disables the record cache',
      type: integer(0, 10_000_000),
    },
    txCacheMb: {
      env: 'TONFLOW_API_TX_CACHE_MB',
      default: '48',
      description:
        'Memory for cached transaction records, MiB, as their JSON text (the heap holds about twice that; least recently used go first): records run from 2 KB to hundreds of KB, so a count alone does not bound it',
      type: integer(1, 1_000_000),
    },
    txCacheTtlMs: {
      env: 'TONFLOW_API_TX_CACHE_TTL_MS',
      default: '60000',
      description: 'How long a cached transaction without trace_id is reused, ms (the trace stage adds trace_id later)',
      type: integer(0, 86_400_000),
    },
    responseCacheEntries: {
      env: 'TONFLOW_API_RESPONSE_CACHE_ENTRIES',
      default: '10000',
      description: 'Whole API responses the gateway reuses while the store is unchanged; 0 disables',
      type: integer(0, 10_000_000),
    },
    responseCacheMb: {
      env: 'TONFLOW_API_RESPONSE_CACHE_MB',
      default: '256',
      description: 'Memory for reused API responses, MiB (least recently used go first; one response at most 8 MiB)',
      type: integer(1, 1_000_000),
    },
    responseCacheCheckMs: {
      env: 'TONFLOW_API_RESPONSE_CACHE_CHECK_MS',
      default: '500',
      description: 'How often the gateway checks whether the store changed, ms: the most a reused response lags the store',
      type: integer(50, 60_000),
    },
    apiReadsInFlight: {
      env: 'TONFLOW_API_READS_IN_FLIGHT',
      default: '1',
      description:
        'Point reads of one kind (blocks by seqno, transactions, account states) the gateway runs at once; requests arriving meanwhile share the next read. 1 suits embedded mode on 2 cores; with more cores raise it with TONFLOW_STORE_READ_CONNECTIONS; a server can take more',
      type: integer(1, 64),
    },
    heavyRows: {
      env: 'TONFLOW_API_HEAVY_ROWS',
      default: '100',
      description: 'A request asking for more rows than this (limit) is heavy: it waits for one of TONFLOW_API_HEAVY_IN_FLIGHT slots',
      type: integer(1, 1_000_000),
    },
    heavyInFlight: {
      env: 'TONFLOW_API_HEAVY_IN_FLIGHT',
      default: '1',
      description:
        'Heavy requests the gateway serves at once (a page of 1000 transactions is a 3-4 MB answer and about 0.3 s of CPU); light ones (masterchainInfo, single records) never wait for them. 1 suits embedded mode on 2 cores; raise it with the cores and TONFLOW_STORE_READ_CONNECTIONS',
      type: integer(1, 1024),
    },
    heavyQueue: {
      env: 'TONFLOW_API_HEAVY_QUEUE',
      default: '32',
      description: 'Heavy requests waiting for a slot, at most; one more is refused with 503 and Retry-After',
      type: integer(0, 100_000),
    },
    responseMbInFlight: {
      env: 'TONFLOW_API_RESPONSE_MB_IN_FLIGHT',
      default: '64',
      description: 'Response bytes being sent at once, MiB, beyond which heavy requests are refused with 503 and Retry-After (slow readers hold their answers)',
      type: integer(1, 1_000_000),
    },
    tvmWorkers: {
      env: 'TONFLOW_TVM_WORKERS',
      default: '1',
      description: 'Worker threads running the TVM for runGetMethod, estimateFee and the checks of sent messages (each holds one emulator, about 60 MiB)',
      type: integer(1, 64),
    },
    tvmTimeoutMs: {
      env: 'TONFLOW_TVM_TIMEOUT_MS',
      default: '10000',
      description: 'Most milliseconds one get-method or emulation may run; its worker is then replaced and the request answered 504',
      type: integer(100, 600_000),
    },
    addressBookTtlMs: {
      env: 'TONFLOW_API_ADDRESS_BOOK_TTL_MS',
      default: '60000',
      description: 'How long the gateway reuses an account code hash for address books, ms; 0 = always read it',
      type: integer(0, 3_600_000),
    },
  },
  // Every tonflow rule still holds: it reads only tonflow keys, which this schema has too.
  tonflowConfigSchema.rules as unknown as readonly ConfigRule<ConfigFields>[],
);

/** The validated, frozen gateway configuration. */
export type GatewayConfig = Config<typeof gatewayConfigSchema>;

/**
 * Where a service's ops server listens: TONFLOW_OPS_HOST, else the API's host where the service has one (a
 * gateway or `start` told to stay on loopback keeps /metrics there too), else every interface.
 */
export function opsHost(c: TonflowConfig | GatewayConfig): string {
  return c.opsHost ?? ('host' in c ? c.host : '0.0.0.0');
}

/** One row of the README's configuration table. */
export interface ConfigTableRow {
  env: string;
  /** `--flag`, or null when the key has no flag. */
  flag: string | null;
  /** The raw default, or null when the key has none. */
  default: string | null;
  description: string;
}

/** The rows of the configuration table, in schema order: by default every key of every service (the gateway's schema holds them all). */
export function configTable(schema: { readonly fields: ConfigFields } = gatewayConfigSchema): ConfigTableRow[] {
  return Object.values(schema.fields).map((f) => ({
    env: f.env,
    flag: f.flag === undefined ? null : `--${f.flag}`,
    default: f.default ?? null,
    description: f.description,
  }));
}

/**
 * The configuration table as Markdown, exactly what belongs between the README's `<!-- config-table -->` and
 * `<!-- /config-table -->` markers (a test keeps the two equal). Regenerate it with
 * `node -e "import('./dist/shared/runtime/config.js').then((m) => console.log(m.renderConfigTable()))"`.
 */
export function renderConfigTable(rows: readonly ConfigTableRow[] = configTable()): string {
  const cell = (s: string | null, code = true): string =>
    s === null ? '' : code ? `\`${s}\`` : s.replaceAll('|', '\\|');
  const lines = ['| variable | flag | default | description |', '|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${cell(r.env)} | ${cell(r.flag)} | ${cell(r.default)} | ${cell(r.description, false)} |`);
  return lines.join('\n');
}
