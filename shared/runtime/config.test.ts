import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  configFlags,
  configTable,
  type ConfigFields,
  configTypes,
  defineConfig,
  loadConfig,
  parseFlags,
  redactConfig,
  renderConfigTable,
  gatewayConfigSchema,
  opsHost,
  tonflowConfigSchema,
  type TonflowConfig,
} from './config.js';
import { ConfigError } from './errors.js';

/** Runs `fn`, expects a ConfigError and returns its issues. */
function issuesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).issues;
  }
  throw new Error('expected a ConfigError');
}

const load = (env: Record<string, string | undefined> = {}, argv: string[] = []): TonflowConfig =>
  loadConfig(tonflowConfigSchema, { env, flags: parseFlags(argv, configFlags(tonflowConfigSchema)).flags });

describe('loadConfig with the tonflow schema', () => {
  it('applies the documented defaults', () => {
    const config = load();
    expect(config).toEqual({
      mode: 'embedded',
      data: './data',
      devnetBlockMs: 1000,
      devnetTraffic: 'default',
      devnetTps: 100,
      devnetSeed: undefined,
      port: 8080,
      opsPort: 9464,
      opsHost: undefined,
      source: { type: 'liteserver', network: 'mainnet' },
      fromSeqno: undefined,
      liteserverConfig: undefined,
      kafkaBrokers: undefined,
      kafkaClientId: undefined,
      topicPrefix: 'tonflow',
      partitions: 8,
      clickhouse: undefined,
      clickhouseDatabase: 'tonflow',
      storeReadConnections: 1,
      storePointReads: true,
      clickhouseUser: undefined,
      clickhousePassword: undefined,
      batchMaxRows: 120000,
      batchMaxMs: 500,
      logLevel: 'info',
      logFormat: 'auto',
      shutdownGraceMs: 15000,
    });
    expectTypeOf(config.port).toEqualTypeOf<number>();
    expectTypeOf(config.mode).toEqualTypeOf<'embedded' | 'distributed'>();
    expectTypeOf(config.kafkaBrokers).toEqualTypeOf<readonly string[] | undefined>();
  });

  it('parses every kind of value', () => {
    const config = load({
      TONFLOW_MODE: 'distributed',
      TONFLOW_SOURCE: 'files:/var/blocks',
      TONFLOW_FROM_SEQNO: '45000000',
      TONFLOW_LITESERVER_CONFIG: 'https://ton.org/global-config.json',
      TONFLOW_KAFKA_BROKERS: ' kafka-0:9092, kafka-1:9092 ,[::1]:9093',
      TONFLOW_CLICKHOUSE: 'http://clickhouse:8123',
      TONFLOW_PARTITIONS: '16',
      TONFLOW_LOG_LEVEL: 'debug',
    });
    expect(config.mode).toBe('distributed');
    expect(config.source).toEqual({ type: 'files', dir: '/var/blocks' });
    expect(config.fromSeqno).toBe(45_000_000);
    expect(config.liteserverConfig).toBe('https://ton.org/global-config.json');
    expect(config.kafkaBrokers).toEqual(['kafka-0:9092', 'kafka-1:9092', '[::1]:9093']);
    expect(config.partitions).toBe(16);
    expect(load({ TONFLOW_SOURCE: 'testnet' }).source).toEqual({ type: 'liteserver', network: 'testnet' });
    expect(load({ TONFLOW_LITESERVER_CONFIG: './global.config.json' }).liteserverConfig).toBe('./global.config.json');
  });

  it('reports every bad key at once, naming the key, the expectation and the value', () => {
    const issues = issuesOf(() =>
      load({
        TONFLOW_PORT: 'abc',
        TONFLOW_OPS_PORT: '70000',
        TONFLOW_MODE: 'cluster',
        TONFLOW_SOURCE: 'files:',
        TONFLOW_KAFKA_BROKERS: 'kafka-0:9092,kafka-1',
        TONFLOW_CLICKHOUSE: 'clickhouse:8123',
        TONFLOW_BATCH_MAX_ROWS: '1e3',
        TONFLOW_LOG_LEVEL: 'verbose',
        TONFLOW_LITESERVER_CONFIG: 'ftp://example.com/config.json',
        TONFLOW_CLICKHOUSE_DATABASE: 'ton-flow',
      }),
    );
    expect(issues).toEqual([
      'TONFLOW_MODE: expected one of embedded | distributed, got "cluster"',
      'TONFLOW_PORT: expected a number 1..65535, got "abc"',
      'TONFLOW_OPS_PORT: expected a number 1..65535, got "70000"',
      'TONFLOW_SOURCE: expected files:DIR, mainnet, testnet or devnet, got "files:"',
      'TONFLOW_LITESERVER_CONFIG: expected a file path or an http(s) URL, got "ftp://example.com/config.json"',
      'TONFLOW_KAFKA_BROKERS: expected a comma-separated list of host:port (not host:port: "kafka-1"), got "kafka-0:9092,kafka-1"',
      'TONFLOW_CLICKHOUSE: expected a URL (http or https), got "clickhouse:8123"',
      'TONFLOW_CLICKHOUSE_DATABASE: expected an identifier ([A-Za-z_][A-Za-z0-9_]*), got "ton-flow"',
      'TONFLOW_BATCH_MAX_ROWS: expected a number 1..10000000, got "1e3"',
      'TONFLOW_LOG_LEVEL: expected one of fatal | error | warn | info | debug | trace | silent, got "verbose"',
    ]);
  });

  it('throws one ConfigError whose message lists the issues', () => {
    expect(() => load({ TONFLOW_PORT: 'abc', TONFLOW_PARTITIONS: '0' })).toThrowError(
      'invalid configuration:\n  TONFLOW_PORT: expected a number 1..65535, got "abc"\n  TONFLOW_PARTITIONS: expected a number 1..4096, got "0"',
    );
  });

  it('lets flags win over the environment and names the flag in errors', () => {
    const config = load({ TONFLOW_PORT: '1000', TONFLOW_MODE: 'distributed' }, [
      '--port',
      '2000',
      '--mode=embedded',
      '--ops-port=3000',
    ]);
    expect(config.port).toBe(2000);
    expect(config.mode).toBe('embedded');
    expect(config.opsPort).toBe(3000);
    expect(issuesOf(() => load({ TONFLOW_PORT: '1000' }, ['--port', 'x']))).toEqual([
      '--port: expected a number 1..65535, got "x"',
    ]);
  });

  it('treats empty values as unset', () => {
    expect(load({ TONFLOW_PORT: '', TONFLOW_CLICKHOUSE: '' })).toMatchObject({ port: 8080, clickhouse: undefined });
  });

  it('applies the cross-field rules, also next to unrelated bad keys', () => {
    expect(issuesOf(() => load({ TONFLOW_MODE: 'distributed', TONFLOW_BATCH_MAX_MS: '-5' }))).toEqual([
      'TONFLOW_BATCH_MAX_MS: expected a number 1..600000, got "-5"',
      'TONFLOW_KAFKA_BROKERS: required when TONFLOW_MODE is distributed (stages talk through Kafka); set TONFLOW_KAFKA_BROKERS or --kafka-brokers to host:port[,host:port...]',
    ]);
    expect(issuesOf(() => load({}, ['--port', '9000', '--ops-port', '9000']))).toEqual([
      'TONFLOW_OPS_PORT: must differ from TONFLOW_PORT (both are 9000; the API and the ops server each bind one)',
    ]);
  });

  it('does not stack a rule on top of a key that already failed', () => {
    // The brokers value is bad: saying "required in distributed mode" as well would be noise.
    const issues = issuesOf(() => load({ TONFLOW_MODE: 'distributed', TONFLOW_KAFKA_BROKERS: 'nope', TONFLOW_CLICKHOUSE: 'http://ch:8123' }));
    expect(issues).toEqual([
      'TONFLOW_KAFKA_BROKERS: expected a comma-separated list of host:port (not host:port: "nope"), got "nope"',
    ]);
  });

  it('returns a deeply frozen object', () => {
    const config = load({ TONFLOW_KAFKA_BROKERS: 'a:1', TONFLOW_SOURCE: 'files:/x' });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.kafkaBrokers)).toBe(true);
    expect(Object.isFrozen(config.source)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(() => (config.kafkaBrokers as string[]).push('b:2')).toThrow(TypeError);
  });

  it('rejects flags the schema does not know, even when parsed elsewhere', () => {
    expect(issuesOf(() => loadConfig(tonflowConfigSchema, { flags: { prot: '1' } }))).toEqual(['--prot: unknown flag']);
  });

  it('never echoes a secret and masks it for logging', () => {
    const schema = defineConfig({
      token: { env: 'TOKEN', description: 'a token', secret: true, type: configTypes.text('at least 8 characters', /^.{8,}$/) },
    });
    expect(issuesOf(() => loadConfig(schema, { env: { TOKEN: 'hunter2' } }))).toEqual([
      'TOKEN: expected at least 8 characters',
    ]);
    const config = load({ TONFLOW_CLICKHOUSE_PASSWORD: 's3cret', TONFLOW_CLICKHOUSE: 'http://u:pw@ch:8123/' });
    expect(config.clickhousePassword).toBe('s3cret');
    const redacted = redactConfig(tonflowConfigSchema, config);
    expect(redacted.clickhousePassword).toBe('[redacted]');
    expect(redacted.clickhouse).toBe('http://u:redacted@ch:8123/');
    expect(JSON.stringify(redacted)).not.toMatch(/s3cret|:pw@/);
  });

  it('reports required keys that are unset', () => {
    const schema = defineConfig({
      url: { env: 'URL', flag: 'url', description: 'where', type: configTypes.url() },
      verbose: { env: 'VERBOSE', flag: 'verbose', boolean: true, default: 'false', description: 'chatty', type: configTypes.boolean() },
    });
    expect(issuesOf(() => loadConfig(schema, {}))).toEqual(['URL: required, set URL (or --url)']);
    expect(loadConfig(schema, { env: { URL: 'https://x.example' }, flags: { verbose: true } })).toEqual({
      url: 'https://x.example',
      verbose: true,
    });
  });
});

describe('parseFlags', () => {
  const spec = { known: ['port', '--mode', 'dry-run'], booleans: ['dry-run'] };

  it('reads --key value, --key=value and bare flags, keeping positionals', () => {
    expect(parseFlags(['start', '--port', '1', '--mode=a=b', '--dry-run', 'file', '--', '--not-a-flag'], spec)).toEqual({
      flags: { port: '1', mode: 'a=b', 'dry-run': true },
      positionals: ['start', 'file', '--not-a-flag'],
    });
  });

  it('takes a negative number as a value and a following flag as the end of a bare flag', () => {
    expect(parseFlags(['--port', '-1', '--mode', '--dry-run'], spec).flags).toEqual({ port: '-1', mode: true, 'dry-run': true });
  });

  it('makes loadConfig ask for the missing value of a bare non-boolean flag', () => {
    const { flags } = parseFlags(['--data', '--port', '1'], configFlags(tonflowConfigSchema));
    expect(issuesOf(() => loadConfig(tonflowConfigSchema, { flags }))).toEqual([
      '--data: needs a value (--data VALUE or --data=VALUE)',
    ]);
  });

  it('rejects unknown, short and repeated flags all at once, suggesting the closest known flag', () => {
    expect(issuesOf(() => parseFlags(['--prot', '1', '-p', '--port', '2', '--port=3', '--zzzzzz'], spec))).toEqual([
      '--prot: unknown flag (did you mean --port?)',
      '-p: unknown option (flags are --long-form only)',
      '--port: given more than once',
      '--zzzzzz: unknown flag',
    ]);
  });

  it('knows the flags of the tonflow schema', () => {
    expect(configFlags(tonflowConfigSchema).known).toEqual([
      'mode',
      'data',
      'port',
      'ops-port',
      'ops-host',
      'source',
      'from-seqno',
      'liteserver-config',
      'block-ms',
      'devnet-traffic',
      'devnet-tps',
      'devnet-seed',
      'kafka-brokers',
      'clickhouse',
      'log-format',
    ]);
  });
});

describe('configTable', () => {
  it('has a row per key with env, flag, default and description', () => {
    const rows = configTable();
    // Every service's keys: the gateway's schema holds the tonflow keys and its own.
    expect(rows).toHaveLength(Object.keys(gatewayConfigSchema.fields).length);
    expect(rows.length).toBeGreaterThan(Object.keys(tonflowConfigSchema.fields).length);
    expect(rows.map((r) => r.env)).toEqual(expect.arrayContaining(['TONFLOW_HOST', 'TONFLOW_TRUST_PROXY', 'TONFLOW_API_CACHE_MB', 'TONFLOW_OPS_HOST']));
    expect(rows[0]).toEqual({
      env: 'TONFLOW_MODE',
      flag: '--mode',
      default: 'embedded',
      description: expect.stringContaining('distributed') as string,
    });
    expect(rows.find((r) => r.env === 'TONFLOW_TOPIC_PREFIX')).toMatchObject({ flag: null, default: 'tonflow' });
    expect(rows.find((r) => r.env === 'TONFLOW_FROM_SEQNO')).toMatchObject({ flag: '--from-seqno', default: null });
    for (const row of rows) expect(row.description.length).toBeGreaterThan(5);
  });

  it('renders Markdown with pipes escaped', () => {
    const md = renderConfigTable([{ env: 'A', flag: null, default: '1', description: 'x | y' }]);
    expect(md).toBe('| variable | flag | default | description |\n|---|---|---|---|\n| `A` |  | `1` | x \\| y |');
  });

  // The README's table is generated from the schema; this keeps the two equal once the README has the markers
  // (`<!-- config-table -->` … `<!-- /config-table -->`, or the same marker twice).
  const tableIn = (text: string): string | undefined =>
    /<!-- config-table -->\r?\n([\s\S]*?)\r?\n<!-- \/?config-table -->/.exec(text)?.[1]?.trim();
  const readmeTable = tableIn(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'));

  it('finds the table between the markers', () => {
    expect(tableIn('# x\n<!-- config-table -->\n| a |\n<!-- /config-table -->\n')).toBe('| a |');
    expect(tableIn('<!-- config-table -->\n| b |\n<!-- config-table -->')).toBe('| b |');
    expect(tableIn('no markers')).toBeUndefined();
  });

  it.skipIf(readmeTable === undefined)('matches the table in README.md', () => {
    expect(readmeTable).toBe(renderConfigTable());
  });
});

// -------------------------------------------------------------------------------------------------------------
// One declaration per variable, read in one place
// -------------------------------------------------------------------------------------------------------------

const repo = new URL('../../', import.meta.url).pathname;

/** Files under `dir` (repo-relative), recursively, whose name passes `keep`. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(repo, rel))) {
      const r = path.join(rel, name);
      if (statSync(path.join(repo, r)).isDirectory()) walk(r);
      else if (keep(name)) out.push(r);
    }
  };
  walk(dir);
  return out.sort();
}

const sourceFiles = (): string[] =>
  ['services', 'shared', 'bench'].flatMap((d) => filesUnder(d, (n) => n.endsWith('.ts') && !n.endsWith('.test.ts')));
const read = (rel: string): string => readFileSync(path.join(repo, rel), 'utf8');
const declared = new Set(Object.values(gatewayConfigSchema.fields).map((f) => f.env));

describe('every environment variable is declared once and read only through the schema', () => {
  it('declares each variable and each flag once', () => {
    const envs = Object.values(gatewayConfigSchema.fields).map((f) => f.env);
    expect(new Set(envs).size).toBe(envs.length);
    const flags = Object.values(gatewayConfigSchema.fields as ConfigFields).flatMap((f) => (f.flag ? [f.flag] : []));
    expect(new Set(flags).size).toBe(flags.length);
  });

  it('reads process.env only in the entry point, which hands it whole to the composition roots', () => {
    const readers = sourceFiles().filter((f) => /\bprocess\.env\b/.test(read(f).replace(/^\s*(\*|\/\/).*$/gm, '')));
    expect(readers).toEqual(['services/tonflow.ts']);
    // No named reads there: the benchmarks' own KAFKA_BROKERS is read by bench/cli.ts from the env it is handed.
    const named = [...read('services/tonflow.ts').matchAll(/process\.env(?:\?)?(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[['"]([^'"]+)['"]\])/g)].map((m) => m[1] ?? m[2]);
    expect(named).toEqual([]);
  });

  it('never looks a TONFLOW_ variable up by name outside the configuration engine', () => {
    // A lookup, not an assignment (bench/ingest.ts writes the settings it hands to loadConfig).
    const lookup = /\benv\s*(?:\?\.)?(?:\.\s*TONFLOW_[A-Z0-9_]+(?![A-Z0-9_])|\[\s*['"`]TONFLOW_[A-Z0-9_]+['"`]\s*\])(?!\s*=[^=])/;
    const offenders = sourceFiles().filter((f) => lookup.test(read(f)));
    expect(offenders).toEqual([]);
  });

  it('names no TONFLOW_ variable in code, manifests or docs that the schema does not declare', () => {
    const files = [
      ...sourceFiles(),
      ...filesUnder('deploy', () => true),
      'README.md',
      ...filesUnder('services', (n) => n === 'README.md'),
    ];
    // Not configuration of a service: the test harness's switches (README, Tests), compose's own substitution of
    // the host folder it mounts, and the variable a manifest names as one Kubernetes must not inject.
    const notConfig = /^TONFLOW_(?:REQUIRE(?:_[A-Z_]+)?|TEST_[A-Z_]+|PY_CLIENTS|BLOCKS_DIR|FOLLOWER_OPS_PORT)$/;
    const unknown = new Set<string>();
    for (const f of files) {
      for (const [name] of read(f).matchAll(/TONFLOW_[A-Z0-9_]*[A-Z0-9]/g)) {
        if (!declared.has(name) && !notConfig.test(name)) unknown.add(`${f}: ${name}`);
      }
    }
    expect([...unknown]).toEqual([]);
  });

  it('sets the V8 heap flags in one place: the entry point\'s first line, which every launcher runs', () => {
    const flag = /--max-semi-space-size|--heap-growing-percent/;
    const files = [...sourceFiles(), ...filesUnder('deploy', () => true), 'package.json', 'README.md', ...filesUnder('services', (n) => n === 'README.md')];
    const setting = files.filter((f) => read(f).split('\n').some((line) => flag.test(line) && /\bnode\b/.test(line)));
    expect(setting).toEqual(['services/tonflow.ts']);
    expect(read('services/tonflow.ts').split('\n', 1)[0]).toMatch(/^#!\/usr\/bin\/env -S node --max-semi-space-size=\d+ --heap-growing-percent=\d+$/);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toMatch(/^dist\/services\/tonflow\.js start$/);
    expect(scripts.bench).toMatch(/^npm run build:bench && dist\/services\/tonflow\.js bench$/);
    expect(scripts.build).toContain('chmod +x dist/services/tonflow.js');
    expect(read('deploy/docker/Dockerfile')).toMatch(/exec dist\/services\/tonflow\.js /);
  });
});

describe('the gateway schema', () => {
  it('masks the API keys when a configuration is logged (tonflow start logs it with this schema)', () => {
    const config = loadConfig(gatewayConfigSchema, { env: { TONFLOW_API_KEYS: 'k3y-s3cret:10' } });
    expect(config.apiKeys).toBe('k3y-s3cret:10');
    expect(JSON.stringify(redactConfig(gatewayConfigSchema, config))).not.toContain('k3y-s3cret');
  });
});

describe('opsHost', () => {
  const gw = (env: Record<string, string> = {}, argv: string[] = []) =>
    loadConfig(gatewayConfigSchema, { env, flags: parseFlags(argv, configFlags(gatewayConfigSchema)).flags });
  it('follows the API host unless set, and every interface for services without one', () => {
    expect(opsHost(gw({}, ['--host', '127.0.0.1']))).toBe('127.0.0.1');
    expect(opsHost(gw({ TONFLOW_HOST: '::1' }))).toBe('::1');
    expect(opsHost(gw({}, ['--host', '127.0.0.1', '--ops-host', '10.0.0.5']))).toBe('10.0.0.5');
    expect(opsHost(gw())).toBe('0.0.0.0');
    expect(opsHost(load())).toBe('0.0.0.0');
    expect(opsHost(load({ TONFLOW_OPS_HOST: '127.0.0.1' }))).toBe('127.0.0.1');
  });
});

describe('TONFLOW_TRUST_PROXY', () => {
  const trust = (v: string) => loadConfig(gatewayConfigSchema, { env: { TONFLOW_TRUST_PROXY: v } }).trustProxy;
  it('takes false, a hop count (true = 1) or proxy addresses, never "every hop"', () => {
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1, 10.1.0.0/16,::1,loopback')).toEqual(['10.0.0.1', '10.1.0.0/16', '::1', 'loopback']);
    expect(() => trust('everything')).toThrow(/TONFLOW_TRUST_PROXY: expected false, true, a number of hops/);
    expect(() => trust('0.0.0.0/0; rm')).toThrow(ConfigError);
  });
});
