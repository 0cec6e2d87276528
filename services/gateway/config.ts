import { type Config, type ConfigRule, configTypes, defineConfig, tonflowConfigSchema } from '../../shared/runtime/config.js';

/**
 * The gateway's configuration: every tonflow key (port, store, mode, …) plus the API's own. `tonflow gateway` and
 * `tonflow start` (which runs the gateway in-process) read it; the follower and indexer never see these keys.
 */

const { integer, text, secret, boolean } = configTypes;

const fields = {
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
    description: 'Take the client address from X-Forwarded-For (set behind a load balancer)',
    type: boolean(),
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
};

/** Every tonflow rule still holds: it reads only tonflow keys, which this schema has too. */
const rules = tonflowConfigSchema.rules as unknown as readonly ConfigRule<typeof fields>[];

export const gatewayConfigSchema = defineConfig(fields, rules);

export type GatewayConfig = Config<typeof gatewayConfigSchema>;

/** Whether a configuration carries the gateway's keys (tonflow start loads this schema, the other roles do not). */
export function isGatewayConfig(c: object): c is GatewayConfig {
  return 'rpsWithoutKey' in c && 'host' in c;
}

/** The network user-friendly addresses are printed for. */
export function isTestnet(c: GatewayConfig): boolean {
  return c.source.type === 'liteserver' && c.source.network === 'testnet';
}
