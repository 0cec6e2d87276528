import type { FastifyInstance } from 'fastify';
import { configFlags, loadConfig, opsHost, parseFlags, redactConfig } from '../../shared/runtime/config.js';
import { createLogger, type Logger } from '../../shared/runtime/logger.js';
import { createMetrics, type Metrics } from '../../shared/runtime/metrics.js';
import { createOpsServer } from '../../shared/runtime/ops-server.js';
import { createShutdown, installProcessHandlers } from '../../shared/runtime/shutdown.js';
import { migrate } from '../../shared/store/migrate.js';
import type { BlockSource } from '../../shared/sources/source.js';
import type { Store } from '../../shared/store/store.js';
import { createTvmPool } from '../../shared/tvm/pool.js';
import { openSource, openStore } from '../common/wiring.js';
import { type GatewayAppConfig, buildApp } from './app.js';
import { type ApiKey, loadApiKeys } from './auth.js';
import { type GatewayConfig, gatewayConfigSchema, isTestnet } from './config.js';

export { gatewayConfigSchema, isGatewayConfig, type GatewayConfig } from './config.js';

export interface RunningGateway {
  app: FastifyInstance;
  /** The bound port (config.port, or the one the OS chose for 0). */
  port: number;
  /** Stops accepting requests, lets in-flight ones finish, closes keep-alive connections. */
  close(): Promise<void>;
}

/** What the app takes from the configuration (shared with bench/heavy-reads.ts, which runs the defaults). */
export function appConfig(config: GatewayConfig, apiKeys: readonly ApiKey[]): GatewayAppConfig {
  return {
    apiKeys,
    rpsWithoutKey: config.rpsWithoutKey,
    testnet: isTestnet(config),
    pointReads: config.storePointReads,
    trustProxy: config.trustProxy,
    cacheEntries: config.apiCacheEntries,
    addressBookTtlMs: config.addressBookTtlMs,
    responseCacheEntries: config.responseCacheEntries,
    responseCacheCheckMs: config.responseCacheCheckMs,
    responseCacheBytes: config.responseCacheMb * 1024 * 1024,
    txRecordCacheEntries: config.txCacheEntries,
    txRecordCacheBytes: config.txCacheMb * 1024 * 1024,
    contentCacheBytes: config.apiCacheMb * 1024 * 1024,
    txRecordTtlMs: config.txCacheTtlMs,
    readsInFlight: config.apiReadsInFlight,
    heavyRows: config.heavyRows,
    heavyInFlight: config.heavyInFlight,
    heavyQueue: config.heavyQueue,
    responseBytesInFlight: config.responseMbInFlight * 1024 * 1024,
  };
}

/**
 * Builds the gateway on an open store and starts listening. Shared by `tonflow gateway` and `tonflow start`
 * (which runs it beside the pipeline, on the same store).
 */
export async function startGateway(deps: {
  config: GatewayConfig;
  store: Store;
  logger: Logger;
  metrics: Metrics;
  /**
   * The source `tonflow start` follows, or the liteservers `tonflow gateway` reaches: sending, block proofs (liteservers),
   * and full account states where it has them (the devnet).
   */
  source?: BlockSource;
}): Promise<RunningGateway> {
  const { config } = deps;
  const apiKeys = loadApiKeys(config.apiKeysFile, config.apiKeys);
  const tvm = createTvmPool({ workers: config.tvmWorkers, timeoutMs: config.tvmTimeoutMs });
  const app = await buildApp({
    tvm: { tvm, ...(deps.source ? { source: deps.source } : {}) },
    store: deps.store,
    logger: deps.logger,
    metrics: deps.metrics.service === 'gateway' ? deps.metrics : deps.metrics.forService('gateway'),
    config: appConfig(config, apiKeys),
  });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  deps.logger.info({ host: config.host, port, apiKeys: apiKeys.length, rpsWithoutKey: config.rpsWithoutKey }, 'gateway listening');
  return {
    app,
    port,
    close: async () => {
      await app.close();
      await tvm.close();
    },
  };
}

/**
 * Composition root of `tonflow gateway`: the API alone, on the store the pipeline fills (a ClickHouse server in
 * distributed mode; in embedded mode the chdb data directory, which only one process can open).
 */
export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { flags } = parseFlags(argv, configFlags(gatewayConfigSchema));
  const config = loadConfig(gatewayConfigSchema, { env, flags });
  const logger = createLogger({ service: 'gateway', level: config.logLevel, pretty: process.stdout.isTTY });
  const metrics = createMetrics({ service: 'gateway' });
  const shutdown = createShutdown({ logger, graceMs: config.shutdownGraceMs });
  installProcessHandlers({ shutdown, logger });
  logger.info({ config: redactConfig(gatewayConfigSchema, config) }, 'starting');

  let ready = false;
  const store = await openStore(config, logger);
  shutdown.add('store', () => store.close());
  // An embedded store is this process's own: create the tables so that an empty index answers empty lists. A
  // server store is migrated by `tonflow migrate` (the gateway's user may well be read-only).
  if (config.clickhouse === undefined) await migrate(store, { logger: logger.child({ module: 'migrate' }) });

  const ops = createOpsServer({ port: config.opsPort, host: opsHost(config), metrics, ready: () => ready, logger: logger.child({ module: 'ops' }) });
  await ops.listen();
  shutdown.add('ops', () => ops.close());

  // Following liteservers, the pipeline runs elsewhere; the gateway still reaches them itself for what the index does
  // not keep: sending messages and block proofs. The source connects only when first asked (it is never iterated).
  const source = config.source.type === 'liteserver' ? await openSource(config, logger, shutdown.signal) : undefined;
  if (source) shutdown.add('source', () => source.close());
  const gateway = await startGateway({ config, store, logger, metrics, ...(source ? { source } : {}) });
  // Closed first: stop taking requests, then the store they use.
  shutdown.add('gateway', () => gateway.close());
  ready = true;
  return shutdown.done;
}
