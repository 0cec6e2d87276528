/** The liteserver source's public types and errors (see index.ts for what is verified). */
import { NonRetryableError, UpstreamUnavailableError } from '../../runtime/errors.js';
import type { BlockSource } from '../source.js';

/** The networks with a bundled global config. */
export type TonNetwork = 'mainnet' | 'testnet';

/** `global_id` of each network's blocks (ConfigParam 19): a block from another network is a configuration error. */
export const GLOBAL_ID: Record<TonNetwork, number> = { mainnet: -239, testnet: -3 };

export const MC_SHARD = 0x8000000000000000n;

/** A complete block id (`tonNode.blockIdExt`): enough to ask for a block and to verify what comes back. */
export interface FullBlockId {
  workchain: number;
  /** Unsigned 64-bit shard id with its tag bit (0x8000000000000000n for a whole workchain). */
  shard: bigint;
  seqno: number;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
}

/** One liteserver: where it listens and the ed25519 key its ADNL handshake is encrypted to. */
export interface LiteserverEndpoint {
  /** IPv4 address or host name. */
  host: string;
  port: number;
  /** 32-byte ed25519 public key (`id.key` of a global config entry). */
  publicKey: Uint8Array;
}

/** The structured-logger subset the source uses (pino's `Logger` satisfies it). */
export interface SourceLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface LiteserverSourceOptions {
  network: TonNetwork;
  /**
   * A parsed TON global config (`{"liteservers": [...], "validator": {...}}`). Default: the bundled public config of
   * `network`. The caller loads an override (`--liteserver-config FILE|URL`), see {@link loadGlobalConfig}.
   */
  globalConfig?: unknown;
  /** Masterchain seqno of the first group; null or absent: the current head. Ignored when resuming a checkpoint. */
  fromSeqno?: number | null;
  logger?: SourceLogger;
  /** Per-query timeout; a liteserver slower than this is skipped and retried later. Default 10 000 ms. */
  queryTimeoutMs?: number;
  /** Time allowed for TCP connect plus ADNL handshake. Default 5 000 ms. */
  connectTimeoutMs?: number;
  /** First backoff of a failed liteserver; doubles per consecutive failure up to `backoffMaxMs`. Default 1 000 ms. */
  backoffInitialMs?: number;
  /** Default 60 000 ms. */
  backoffMaxMs?: number;
  /**
   * How often to ask again for a block no liteserver has yet (the next masterchain block at the head, or a block a
   * lagging liteserver has not applied). Default 1 000 ms. Such blocks are waited for, never skipped.
   */
  pollIntervalMs?: number;
  /**
   * Verification failures (bytes not matching the requested hashes) tolerated for one block, over all liteservers,
   * before the source gives up with {@link BlockIntegrityError}. Default: max(3, number of liteservers).
   */
  maxIntegrityFailures?: number;
  /** Upper bound on shard blocks walked for one masterchain block: a guard against a runaway walk. Default 10 000. */
  maxShardBlocksPerGroup?: number;
  /**
   * Masterchain blocks fetched and walked ahead of the group being yielded, while catching up (1: one at a time).
   * Groups are still yielded strictly in order. Default 4.
   */
  prefetch?: number;
  /**
   * Most `liteServer.getAccountState` queries in flight at once for {@link BlockSource.accountStatesAt} (each runs
   * through the same pool, rotation and backoff as block fetches). Default 4.
   */
  accountStateConcurrency?: number;
}

/** Health of one configured liteserver, for logs, metrics and `/ready`. */
export interface LiteserverStatus {
  /** `host:port`. */
  address: string;
  /** Consecutive failures (0: healthy). */
  failures: number;
  /** Epoch ms before which the liteserver is not asked again (0: usable now). */
  retryAt: number;
  lastError: string | null;
  /** Set when the liteserver was dropped for good (it serves another network). */
  excluded: string | null;
}

/** A {@link BlockSource} that also reports the health of its liteservers. */
export interface LiteserverSource extends BlockSource {
  status(): LiteserverStatus[];
}

// ---------------------------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------------------------

/** A liteserver could not be reached, dropped the connection or did not answer in time. */
export class LiteserverUnavailableError extends UpstreamUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('LITESERVER_UNAVAILABLE', message, options);
  }
}

/** A liteserver answered the query with `liteServer.error` (the usual answer for a block it does not have). */
export class LiteserverAnswerError extends UpstreamUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('LITESERVER_ERROR', message, options);
  }
}

/** A liteserver refused an external message (`liteServer.error` on `sendMessage`). */
export class MessageRefusedError extends NonRetryableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('LITESERVER_MESSAGE_REFUSED', message, options);
  }
}

/**
 * Every liteserver asked served bytes that do not match the block's id, `maxIntegrityFailures` times in a row.
 * Not retryable: the follower must not go on without this block, and asking the same servers again will not help.
 */
export class BlockIntegrityError extends NonRetryableError {
  constructor(message: string) {
    super('LITESERVER_BAD_BLOCK', message);
  }
}

/**
 * One verification failure; the pool counts them and turns a run of them into {@link BlockIntegrityError}.
 * `served`: the bytes a liteserver served as the block `id` that are not that block, kept for the dead-letter topic.
 */
export class IntegrityFailure extends Error {
  override readonly name = 'IntegrityFailure';
  constructor(
    message: string,
    readonly served?: { id: FullBlockId; data: Uint8Array },
  ) {
    super(message);
  }
}

/** A liteserver that belongs to another network: dropped for good. */
export class WrongNetworkFailure extends Error {
  override readonly name = 'WrongNetworkFailure';
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
