/**
 * The `liteserver` block source: follows mainnet or testnet through liteservers (ADNL over TCP, lite_api.tl),
 * masterchain block after masterchain block, and yields with each one every shard block it commits.
 *
 * This file is the only importer of `ton-lite-client` (house-style rule 4). Everything the rest of tonflow sees is
 * {@link BlockSource} plus a thin {@link LiteserverConnection} for diagnostics and tests.
 *
 * What is verified, and what is not:
 * - every block's bytes are checked against the id they were asked for: file hash = sha256(bytes), root hash = the
 *   representation hash of the BOC's root cell. A liteserver that serves other bytes is penalised, and the block is
 *   fetched from another one; bytes that fail the check are never yielded.
 * - shard block ids come from verified blocks only (the masterchain block's ShardHashes, then prev refs of verified
 *   shard blocks), so every shard block is hash-chained to its masterchain block.
 * - masterchain block N+1 must name block N (the one already published) as its prev block, so a liteserver cannot
 *   splice in a block of another chain once the follower has a starting point.
 * - NOT verified: validator signatures and Merkle proofs. The first masterchain block of a fresh start is trusted as
 *   the liteserver reports it. Use liteservers you trust (`--liteserver-config`) if that matters.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { LiteSingleEngine } from 'ton-lite-client';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { NonRetryableError, UpstreamUnavailableError } from '../runtime/errors.js';
import { Boc } from '../ton/boc/reader.js';
import { DecodeError } from '../ton/errors.js';
import { prevBlockIds } from '../ton/records/block.js';
import { shardHex } from '../ton/records/format.js';
import { type Block, loadBlock } from '../ton/tlb/Block.js';
import { shardId } from '../ton/tlb/ShardIdent.js';
import type { BlockGroup, BlockSource, RawBlock } from './source.js';

// ---------------------------------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------------------------------

/** The networks with a bundled global config. */
export type TonNetwork = 'mainnet' | 'testnet';

/** `global_id` of each network's blocks (ConfigParam 19): a block from another network is a configuration error. */
const GLOBAL_ID: Record<TonNetwork, number> = { mainnet: -239, testnet: -3 };

const MC_SHARD = 0x8000000000000000n;

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

/**
 * Every liteserver asked served bytes that do not match the block's id, `maxIntegrityFailures` times in a row.
 * Not retryable: the follower must not go on without this block, and asking the same servers again will not help.
 */
/** A liteserver refused an external message (`liteServer.error` on `sendMessage`). */
export class MessageRefusedError extends NonRetryableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('LITESERVER_MESSAGE_REFUSED', message, options);
  }
}

export class BlockIntegrityError extends NonRetryableError {
  constructor(message: string) {
    super('LITESERVER_BAD_BLOCK', message);
  }
}

/** One verification failure; the pool counts them and turns a run of them into {@link BlockIntegrityError}. */
class IntegrityFailure extends Error {
  override readonly name = 'IntegrityFailure';
}

/** A liteserver that belongs to another network: dropped for good. */
class WrongNetworkFailure extends Error {
  override readonly name = 'WrongNetworkFailure';
}

// ---------------------------------------------------------------------------------------------------------------
// Global config
// ---------------------------------------------------------------------------------------------------------------

/** What the source needs from a global config. */
export interface ParsedGlobalConfig {
  liteservers: LiteserverEndpoint[];
  /** Root hash of the masterchain zero state, when the config names it: liteservers reporting another are dropped. */
  zeroStateRootHash: Uint8Array | null;
}

/**
 * Validates a global config object and extracts the liteservers. Throws one {@link NonRetryableError}
 * (`LITESERVER_CONFIG_INVALID`) listing every problem.
 */
export function parseGlobalConfig(config: unknown): ParsedGlobalConfig {
  const issues: string[] = [];
  const liteservers: LiteserverEndpoint[] = [];
  const list = isRecord(config) ? config.liteservers : undefined;
  if (!Array.isArray(list) || list.length === 0) {
    issues.push('liteservers: expected a non-empty array');
  } else {
    list.forEach((entry: unknown, i) => {
      const at = `liteservers[${i}]`;
      if (!isRecord(entry)) return void issues.push(`${at}: expected an object`);
      const { ip, port, id } = entry;
      if (typeof ip !== 'number' || !Number.isInteger(ip) || ip < -0x80000000 || ip > 0xffffffff) {
        issues.push(`${at}.ip: expected an IPv4 address as a 32-bit integer`);
      }
      if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) issues.push(`${at}.port: expected 1..65535`);
      const key = isRecord(id) && typeof id.key === 'string' ? Buffer.from(id.key, 'base64') : null;
      if (!key || key.length !== 32) issues.push(`${at}.id.key: expected a base64 ed25519 public key (32 bytes)`);
      else if (isRecord(id) && id['@type'] !== undefined && id['@type'] !== 'pub.ed25519') issues.push(`${at}.id.@type: only pub.ed25519 is supported`);
      if (issues.length === 0 && typeof ip === 'number' && typeof port === 'number' && key) {
        liteservers.push({ host: ipv4(ip), port, publicKey: new Uint8Array(key) });
      }
    });
  }
  let zeroStateRootHash: Uint8Array | null = null;
  const zs = isRecord(config) && isRecord(config.validator) ? config.validator.zero_state : undefined;
  if (isRecord(zs) && typeof zs.root_hash === 'string') {
    const h = Buffer.from(zs.root_hash, 'base64');
    if (h.length === 32) zeroStateRootHash = new Uint8Array(h);
    else issues.push('validator.zero_state.root_hash: expected 32 bytes of base64');
  }
  if (issues.length > 0) throw new NonRetryableError('LITESERVER_CONFIG_INVALID', `invalid global config:\n  ${issues.join('\n  ')}`);
  return { liteservers, zeroStateRootHash };
}

/** A global config stores IPv4 addresses as signed 32-bit integers, most significant byte first. */
function ipv4(ip: number): string {
  const u = ip >>> 0;
  return `${u >>> 24}.${(u >>> 16) & 255}.${(u >>> 8) & 255}.${u & 255}`;
}

/**
 * The public global config of `network`, as bundled in `shared/sources/global-config/` (a snapshot of
 * ton.org's `global.config.json` / `testnet-global.config.json`; liteservers change, so deployments should pass a
 * fresh one with `--liteserver-config`).
 */
export async function bundledGlobalConfig(network: TonNetwork): Promise<unknown> {
  // tsc does not copy JSON files to dist/, so the compiled module falls back to the source tree next to it.
  const candidates = [
    new URL(`./global-config/${network}.json`, import.meta.url),
    new URL(`../../../shared/sources/global-config/${network}.json`, import.meta.url),
  ];
  for (const url of candidates) {
    try {
      return JSON.parse(await readFile(url, 'utf8')) as unknown;
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'ENOENT') throw e;
    }
  }
  throw new NonRetryableError('LITESERVER_CONFIG_INVALID', `bundled global config for ${network} not found`);
}

/**
 * Reads a global config from a file path or an http(s) URL (the `--liteserver-config` value) and parses the JSON.
 * Validation happens in {@link createLiteserverSource}.
 */
export async function loadGlobalConfig(location: string, opts: { signal?: AbortSignal } = {}): Promise<unknown> {
  let text: string;
  try {
    if (/^https?:\/\//i.test(location)) {
      const res = await fetch(location, { signal: opts.signal ?? AbortSignal.timeout(30_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = await res.text();
    } else {
      text = await readFile(location, 'utf8');
    }
  } catch (e) {
    throw new UpstreamUnavailableError('LITESERVER_CONFIG_UNREADABLE', `cannot read global config ${location}: ${(e as Error).message}`, { cause: e });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new NonRetryableError('LITESERVER_CONFIG_INVALID', `global config ${location} is not JSON: ${(e as Error).message}`, { cause: e });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// One connection (ton-lite-client)
// ---------------------------------------------------------------------------------------------------------------

/** `liteServer.masterchainInfo`, with ids in {@link FullBlockId} form. */
export interface MasterchainInfo {
  last: FullBlockId;
  stateRootHash: Uint8Array;
  /** The masterchain zero state (`init`): identifies the network. */
  init: { workchain: number; rootHash: Uint8Array; fileHash: Uint8Array };
}

export interface MasterchainInfoExt extends MasterchainInfo {
  version: number;
  capabilities: bigint;
  lastUtime: number;
  now: number;
}

/**
 * One ADNL connection to one liteserver, speaking lite_api.tl through ton-lite-client. Every method fails with
 * {@link LiteserverUnavailableError} when the connection cannot be made, drops or times out, and with
 * {@link LiteserverAnswerError} when the liteserver answers `liteServer.error`.
 */
export interface LiteserverConnection {
  readonly address: string;
  /** Resolves once the ADNL handshake is done. */
  ready(): Promise<void>;
  getMasterchainInfo(): Promise<MasterchainInfo>;
  getMasterchainInfoExt(): Promise<MasterchainInfoExt>;
  getTime(): Promise<number>;
  getVersion(): Promise<{ version: number; capabilities: bigint; now: number }>;
  /** `liteServer.lookupBlock` by seqno (mode 1). */
  lookupBlock(id: { workchain: number; shard: bigint; seqno: number }): Promise<FullBlockId>;
  /** `liteServer.getBlock`: the block's bytes as served (unverified) and the id the server says they belong to. */
  getBlock(id: FullBlockId): Promise<{ id: FullBlockId; data: Uint8Array }>;
  /** `liteServer.getBlockHeader` (mode 0): the header Merkle proof BOC. */
  getBlockHeader(id: FullBlockId): Promise<{ id: FullBlockId; headerProof: Uint8Array }>;
  /** `liteServer.getAllShardsInfo`: `data` is a BOC whose root holds the ShardHashes HashmapE of that state. */
  getAllShardsInfo(id: FullBlockId): Promise<{ id: FullBlockId; proof: Uint8Array; data: Uint8Array }>;
  /** `liteServer.sendMessage`: an inbound external message BOC; the liteserver checks it on its state first. */
  sendMessage(boc: Uint8Array): Promise<number>;
  /** Closes the connection; pending queries fail. Idempotent. */
  close(): void;
}

export interface ConnectOptions {
  queryTimeoutMs?: number;
  connectTimeoutMs?: number;
}

/**
 * Opens an ADNL connection to one liteserver. The handshake starts at once; methods wait for it (up to
 * `connectTimeoutMs`).
 */
export function connectLiteserver(endpoint: LiteserverEndpoint, opts: ConnectOptions = {}): LiteserverConnection {
  return new Connection(endpoint, opts.queryTimeoutMs ?? 10_000, opts.connectTimeoutMs ?? 5_000);
}

/** The shape of ton-lite-client's `Functions.*` entries (ton-tl's TLFunction, without importing ton-tl). */
type TlFunction<REQ, RES> = { encodeRequest(src: REQ, encoder: never): void; decodeResponse(decoder: never): RES };

class Connection implements LiteserverConnection {
  readonly address: string;
  private readonly engine: LiteSingleEngine;
  private readonly handshake: Promise<void>;
  /** Rejects when the connection is gone, failing every query still in flight at once instead of at its timeout. */
  private readonly gone: Promise<never>;
  private fail!: (e: Error) => void;
  private closed = false;

  constructor(
    endpoint: LiteserverEndpoint,
    private readonly queryTimeoutMs: number,
    connectTimeoutMs: number,
  ) {
    this.address = `${endpoint.host}:${endpoint.port}`;
    this.gone = new Promise<never>((_, reject) => {
      this.fail = reject;
    });
    this.gone.catch(() => {});
    // The engine connects in its constructor. It reconnects on its own after a drop, and 30 s after a socket error
    // even once closed. This wrapper instead treats a drop as the end of the connection (the pool opens a new one
    // when its backoff allows), so `dispose()` disarms those reconnects. The engine's timers themselves cannot be
    // cleared from outside: after a socket error one can keep the event loop alive for up to 30 s after close().
    this.engine = new LiteSingleEngine({ host: `tcp://${endpoint.host}:${endpoint.port}`, publicKey: Buffer.from(endpoint.publicKey), reconnectTimeout: 1_000 });
    // Without an 'error' listener EventEmitter would throw the engine's error events at the process.
    this.engine.on('error', () => this.dispose(new LiteserverUnavailableError(`liteserver ${this.address}: connection failed`)));
    this.engine.on('close', () => this.dispose(new LiteserverUnavailableError(`liteserver ${this.address}: connection closed`)));
    this.handshake = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        const e = new LiteserverUnavailableError(`liteserver ${this.address}: no ADNL handshake within ${connectTimeoutMs} ms`);
        this.dispose(e);
        reject(e);
      }, connectTimeoutMs);
      this.engine.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
      this.gone.catch((e: unknown) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    this.handshake.catch(() => {});
  }

  get isClosed(): boolean {
    return this.closed;
  }

  ready(): Promise<void> {
    return this.handshake;
  }

  close(): void {
    this.dispose(new LiteserverUnavailableError(`liteserver ${this.address}: connection closed by tonflow`));
  }

  private dispose(reason: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.fail(reason);
    this.engine.close();
    // Disarm the engine's own reconnect timers (see the constructor): `connect` is what they call.
    Object.defineProperty(this.engine, 'connect', { value: () => {} });
  }

  private async query<REQ, RES>(f: TlFunction<REQ, RES>, req: REQ): Promise<RES> {
    if (this.closed) throw new LiteserverUnavailableError(`liteserver ${this.address}: connection closed`);
    await this.handshake;
    try {
      return await Promise.race([this.engine.query(f as never, req, { timeout: this.queryTimeoutMs }) as Promise<RES>, this.gone]);
    } catch (e) {
      throw this.translate(e);
    }
  }

  /** ton-lite-client reports everything as a plain Error; the message is all there is to tell them apart. */
  private translate(e: unknown): Error {
    if (e instanceof LiteserverUnavailableError) return e;
    const message = e instanceof Error ? e.message : String(e);
    if (message === 'Timeout') {
      return new LiteserverUnavailableError(`liteserver ${this.address}: no answer within ${this.queryTimeoutMs} ms`, { cause: e });
    }
    if (message === 'Engine is closed') return new LiteserverUnavailableError(`liteserver ${this.address}: connection closed`, { cause: e });
    // Undecodable answers (ton-tl's "Unknown type" / "Not enough bytes") mean a broken peer, not a missing block.
    if (/^(Unknown type|Not enough bytes|Invalid|Unknown boolean)/.test(message)) {
      return new LiteserverUnavailableError(`liteserver ${this.address}: malformed answer: ${message}`, { cause: e });
    }
    return new LiteserverAnswerError(`liteserver ${this.address}: ${message}`, { cause: e });
  }

  async getMasterchainInfo(): Promise<MasterchainInfo> {
    const r = await this.query(Functions.liteServer_getMasterchainInfo, { kind: 'liteServer.getMasterchainInfo' });
    return { last: fromTl(r.last), stateRootHash: new Uint8Array(r.stateRootHash), init: zeroState(r.init) };
  }

  async getMasterchainInfoExt(): Promise<MasterchainInfoExt> {
    const r = await this.query(Functions.liteServer_getMasterchainInfoExt, { kind: 'liteServer.getMasterchainInfoExt', mode: 0 });
    return {
      last: fromTl(r.last),
      stateRootHash: new Uint8Array(r.stateRootHash),
      init: zeroState(r.init),
      version: r.version,
      capabilities: BigInt(r.capabilities),
      lastUtime: r.lastUtime,
      now: r.now,
    };
  }

  async getTime(): Promise<number> {
    return (await this.query(Functions.liteServer_getTime, { kind: 'liteServer.getTime' })).now;
  }

  async getVersion(): Promise<{ version: number; capabilities: bigint; now: number }> {
    const r = await this.query(Functions.liteServer_getVersion, { kind: 'liteServer.getVersion' });
    return { version: r.version, capabilities: BigInt(r.capabilities), now: r.now };
  }

  async lookupBlock(id: { workchain: number; shard: bigint; seqno: number }): Promise<FullBlockId> {
    const r = await this.query(Functions.liteServer_lookupBlock, {
      kind: 'liteServer.lookupBlock',
      mode: 1,
      id: { kind: 'tonNode.blockId', workchain: id.workchain, shard: tlShard(id.shard), seqno: id.seqno },
      lt: null,
      utime: null,
    });
    return fromTl(r.id);
  }

  async getBlock(id: FullBlockId): Promise<{ id: FullBlockId; data: Uint8Array }> {
    const r = await this.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: toTl(id) });
    return { id: fromTl(r.id), data: r.data };
  }

  async getBlockHeader(id: FullBlockId): Promise<{ id: FullBlockId; headerProof: Uint8Array }> {
    const r = await this.query(Functions.liteServer_getBlockHeader, { kind: 'liteServer.getBlockHeader', id: toTl(id), mode: 0 });
    return { id: fromTl(r.id), headerProof: r.headerProof };
  }

  async getAllShardsInfo(id: FullBlockId): Promise<{ id: FullBlockId; proof: Uint8Array; data: Uint8Array }> {
    const r = await this.query(Functions.liteServer_getAllShardsInfo, { kind: 'liteServer.getAllShardsInfo', id: toTl(id) });
    return { id: fromTl(r.id), proof: r.proof, data: r.data };
  }

  async sendMessage(boc: Uint8Array): Promise<number> {
    const r = await this.query(Functions.liteServer_sendMessage, { kind: 'liteServer.sendMessage', body: Buffer.from(boc) });
    return r.status;
  }
}

/** TL carries shard ids as signed 64-bit integers (ton-tl: decimal strings). */
function tlShard(shard: bigint): string {
  return BigInt.asIntN(64, shard).toString();
}

function toTl(id: FullBlockId): tonNode_blockIdExt {
  return {
    kind: 'tonNode.blockIdExt',
    workchain: id.workchain,
    shard: tlShard(id.shard),
    seqno: id.seqno,
    rootHash: Buffer.from(id.rootHash),
    fileHash: Buffer.from(id.fileHash),
  };
}

function fromTl(id: tonNode_blockIdExt): FullBlockId {
  return {
    workchain: id.workchain,
    shard: BigInt.asUintN(64, BigInt(id.shard)),
    seqno: id.seqno,
    // Copies: ton-tl hands out views into the packet buffer.
    rootHash: new Uint8Array(id.rootHash),
    fileHash: new Uint8Array(id.fileHash),
  };
}

function zeroState(z: { workchain: number; rootHash: Buffer; fileHash: Buffer }): MasterchainInfo['init'] {
  return { workchain: z.workchain, rootHash: new Uint8Array(z.rootHash), fileHash: new Uint8Array(z.fileHash) };
}

// ---------------------------------------------------------------------------------------------------------------
// The pool: rotation and backoff
// ---------------------------------------------------------------------------------------------------------------

interface PoolNode {
  readonly endpoint: LiteserverEndpoint;
  readonly address: string;
  conn: Connection | null;
  failures: number;
  retryAt: number;
  lastError: string | null;
  excluded: string | null;
}

interface PoolOptions {
  queryTimeoutMs: number;
  connectTimeoutMs: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
  pollIntervalMs: number;
  maxIntegrityFailures: number;
  logger: SourceLogger;
}

/**
 * Runs each operation on one liteserver at a time. It sticks to a liteserver while it works. A liteserver whose
 * connection fails, times out or serves bad bytes is skipped until its backoff (doubling per consecutive failure)
 * expires. One that answers "not found" is healthy but behind: the next one is asked, and when none has the block
 * the pool waits `pollIntervalMs` and asks again, for as long as it takes (a gap is never skipped).
 */
class Pool {
  private readonly nodes: PoolNode[];
  private cursor = 0;

  constructor(
    endpoints: LiteserverEndpoint[],
    private readonly opts: PoolOptions,
  ) {
    this.nodes = endpoints.map((endpoint) => ({
      endpoint,
      address: `${endpoint.host}:${endpoint.port}`,
      conn: null,
      failures: 0,
      retryAt: 0,
      lastError: null,
      excluded: null,
    }));
    // Start at a random liteserver so that many followers on one config do not all load the first one.
    this.cursor = Math.floor(Math.random() * this.nodes.length);
  }

  status(): LiteserverStatus[] {
    return this.nodes.map((n) => ({ address: n.address, failures: n.failures, retryAt: n.retryAt, lastError: n.lastError, excluded: n.excluded }));
  }

  close(): void {
    for (const n of this.nodes) {
      n.conn?.close();
      n.conn = null;
    }
  }

  /**
   * Runs `op` until a liteserver completes it. `what` names the object for logs and errors.
   * @throws BlockIntegrityError after `maxIntegrityFailures` verification failures
   */
  async run<T>(what: string, op: (conn: LiteserverConnection) => Promise<T>, signal: AbortSignal): Promise<T> {
    const askedThisRound = new Set<PoolNode>();
    let integrityFailures = 0;
    let waitingSince = 0;
    let lastWaitLog = 0;
    for (;;) {
      signal.throwIfAborted();
      const node = this.pick(askedThisRound);
      if (!node) {
        const usable = this.nodes.filter((n) => !n.excluded);
        if (usable.length === 0) {
          throw new NonRetryableError('LITESERVER_NONE_USABLE', `no usable liteserver left: ${this.nodes.map((n) => `${n.address} (${n.excluded})`).join(', ')}`);
        }
        if (askedThisRound.size > 0) {
          // Every liteserver that could be asked said it does not have it (yet): wait for the chain, then ask again.
          const now = Date.now();
          if (waitingSince === 0) waitingSince = now;
          if (now - lastWaitLog >= 30_000) {
            lastWaitLog = now;
            this.opts.logger.info({ block: what, waitingMs: now - waitingSince, asked: askedThisRound.size }, 'block not available on any liteserver yet, waiting');
          }
          askedThisRound.clear();
          await delay(this.opts.pollIntervalMs, undefined, { signal });
        } else {
          const wake = Math.min(...usable.map((n) => n.retryAt));
          await delay(Math.max(1, wake - Date.now()), undefined, { signal });
        }
        continue;
      }
      const conn = this.connection(node);
      try {
        const result = await abortable(op(conn), signal);
        this.succeeded(node);
        return result;
      } catch (e) {
        if (signal.aborted) throw e;
        if (e instanceof LiteserverAnswerError) {
          askedThisRound.add(node);
          this.advancePast(node);
          this.opts.logger.debug({ liteserver: node.address, block: what, err: e }, 'liteserver does not have the block');
        } else if (e instanceof IntegrityFailure) {
          integrityFailures++;
          this.failed(node, conn, e);
          this.opts.logger.warn({ liteserver: node.address, block: what, reason: e.message, integrityFailures }, 'liteserver served bytes that fail verification');
          if (integrityFailures >= this.opts.maxIntegrityFailures) {
            throw new BlockIntegrityError(
              `${what}: ${integrityFailures} answers failed verification (last from ${node.address}: ${e.message}); the block was not yielded`,
            );
          }
        } else if (e instanceof WrongNetworkFailure) {
          node.excluded = e.message;
          node.conn?.close();
          node.conn = null;
          this.advancePast(node);
          this.opts.logger.warn({ liteserver: node.address, reason: e.message }, 'liteserver dropped: another network');
        } else if (e instanceof LiteserverUnavailableError) {
          this.failed(node, conn, e);
          this.opts.logger.warn({ liteserver: node.address, block: what, err: e, retryInMs: node.retryAt - Date.now() }, 'liteserver failed, trying another');
        } else {
          throw e;
        }
      }
    }
  }

  /** The sticky liteserver if usable, else the next usable one in config order. */
  private pick(skip: Set<PoolNode>): PoolNode | null {
    const now = Date.now();
    for (let k = 0; k < this.nodes.length; k++) {
      const i = (this.cursor + k) % this.nodes.length;
      const n = this.nodes[i]!;
      if (n.excluded || n.retryAt > now || skip.has(n)) continue;
      this.cursor = i;
      return n;
    }
    return null;
  }

  private connection(node: PoolNode): Connection {
    if (!node.conn || node.conn.isClosed) {
      node.conn = new Connection(node.endpoint, this.opts.queryTimeoutMs, this.opts.connectTimeoutMs);
    }
    return node.conn;
  }

  private succeeded(node: PoolNode): void {
    node.failures = 0;
    node.retryAt = 0;
    node.lastError = null;
  }

  /**
   * Backs `node` off. A transport failure also drops its connection; the other queries in flight on that connection
   * fail with it, and count as the same failure. A verification failure is a bad answer, not a bad connection:
   * queries in flight there go on (their answers are verified on their own).
   */
  private failed(node: PoolNode, conn: Connection, e: Error): void {
    const transport = !(e instanceof IntegrityFailure);
    if (transport && node.conn !== conn) return;
    node.failures++;
    const base = Math.min(this.opts.backoffMaxMs, this.opts.backoffInitialMs * 2 ** (node.failures - 1));
    // ±20 % jitter so that followers sharing a liteserver do not come back in lockstep.
    node.retryAt = Date.now() + Math.round(base * (0.8 + Math.random() * 0.4));
    node.lastError = e.message;
    if (transport) {
      node.conn = null;
      conn.close();
    }
    this.advancePast(node);
  }

  private advancePast(node: PoolNode): void {
    const i = this.nodes.indexOf(node);
    if (this.nodes[this.cursor] === node) this.cursor = (i + 1) % this.nodes.length;
  }
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Verification
// ---------------------------------------------------------------------------------------------------------------

interface VerifiedBlock {
  id: FullBlockId;
  data: Uint8Array;
  block: Block;
}

/**
 * Checks that `data` is the block `id` names: sha256(data) = file hash, root cell hash = root hash, and the header
 * agrees on workchain, shard and seqno. Only then is the block decoded (BlockInfo, and McBlockExtra for a
 * masterchain block); the transactions are left to the decode stage.
 */
function verifyBlock(id: FullBlockId, answered: FullBlockId, data: Uint8Array, globalId: number): VerifiedBlock {
  if (!sameId(id, answered)) throw new IntegrityFailure(`asked for ${describeId(id)}, got ${describeId(answered)}`);
  const fileHash = createHash('sha256').update(data).digest();
  if (!equalBytes(fileHash, id.fileHash)) throw new IntegrityFailure(`file hash ${hex(fileHash)} != ${hex(id.fileHash)}`);
  let boc: Boc;
  try {
    boc = Boc.parse(data);
  } catch (e) {
    throw new IntegrityFailure(`not a valid BOC: ${(e as Error).message}`);
  }
  const rootHash = boc.hash(boc.root);
  if (!equalBytes(rootHash, id.rootHash)) throw new IntegrityFailure(`root hash ${hex(rootHash)} != ${hex(id.rootHash)}`);
  // The bytes are the block the id names; a decode failure from here on is ours (or a format change), not the
  // liteserver's, and retrying will not change it: DecodeError is not retryable.
  let block: Block;
  try {
    block = loadBlock(boc);
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    throw new NonRetryableError('BLOCK_UNDECODABLE', `${describeId(id)}: ${(e as Error).message}`, { cause: e });
  }
  const info = block.info;
  if (info.shard.workchain !== id.workchain || shardId(info.shard) !== id.shard || info.seqno !== id.seqno) {
    throw new IntegrityFailure(`header says ${info.shard.workchain}:${shardHex(shardId(info.shard))}:${info.seqno}`);
  }
  if (block.globalId !== globalId) {
    throw new NonRetryableError(
      'LITESERVER_WRONG_NETWORK',
      `${describeId(id)} has global_id ${block.globalId}, expected ${globalId}: the liteservers serve another network than configured`,
    );
  }
  return { id, data, block };
}

function sameId(a: FullBlockId, b: FullBlockId): boolean {
  return a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno && equalBytes(a.rootHash, b.rootHash) && equalBytes(a.fileHash, b.fileHash);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function hex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

function describeId(id: { workchain: number; shard: bigint; seqno: number }): string {
  return `(${id.workchain},${shardHex(id.shard)},${id.seqno})`;
}

// ---------------------------------------------------------------------------------------------------------------
// Shard walk
// ---------------------------------------------------------------------------------------------------------------

/** The ShardHashes leaves of a masterchain block: the newest block of every shard that it commits. */
function shardTips(mc: Block): FullBlockId[] {
  const hashes = mc.extra.custom?.shardHashes ?? [];
  return hashes.map((h) => ({ workchain: h.workchain, shard: h.shard, seqno: h.descr.seqno, rootHash: h.descr.rootHash, fileHash: h.descr.fileHash }));
}

/** Order of blocks within a group: by start_lt, then workchain and shard. */
function olderFirst(a: VerifiedBlock, b: VerifiedBlock): number {
  const lt = a.block.info.startLt - b.block.info.startLt;
  if (lt !== 0n) return lt < 0n ? -1 : 1;
  if (a.id.workchain !== b.id.workchain) return a.id.workchain - b.id.workchain;
  return a.id.shard < b.id.shard ? -1 : a.id.shard > b.id.shard ? 1 : 0;
}

/** The account-prefix interval [lo, hi) a shard covers: the tag bit's position sets its width. */
function shardRange(shard: bigint): [bigint, bigint] {
  const tag = shard & -shard;
  return [shard - tag, shard + tag];
}

function overlaps(a: bigint, b: bigint): boolean {
  const [aLo, aHi] = shardRange(a);
  const [bLo, bHi] = shardRange(b);
  return aLo < bHi && bLo < aHi;
}

/**
 * Whether the previous masterchain block already committed `ref`. Every point of a workchain's account space is
 * covered by one linear chain of blocks (splits and merges fork or join those chains, and a block's seqno is above
 * all its parents'), so a block overlapping a committed tip with a seqno not above the tip's is that tip or one of
 * its ancestors. The hashes must then agree, or the chain forked under us.
 */
function alreadyCommitted(ref: FullBlockId, committed: FullBlockId[]): boolean {
  for (const tip of committed) {
    if (tip.workchain !== ref.workchain || !overlaps(tip.shard, ref.shard) || ref.seqno > tip.seqno) continue;
    if (tip.shard === ref.shard && tip.seqno === ref.seqno && !equalBytes(tip.rootHash, ref.rootHash)) {
      throw new BlockIntegrityError(`${describeId(ref)}: root hash ${hex(ref.rootHash)} differs from the committed ${hex(tip.rootHash)}`);
    }
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------------------
// Checkpoints
// ---------------------------------------------------------------------------------------------------------------

interface JsonBlockId {
  workchain: number;
  shard: string;
  seqno: number;
  rootHash: string;
  fileHash: string;
}

/**
 * `{"v":1,"mc":{...},"shards":[...]}`: the last published masterchain block and the shard tips it committed. The tips
 * are what the next group's walk stops at, so a restart yields exactly the blocks after this group: nothing twice,
 * nothing skipped. A bare decimal seqno is accepted too (then the tips are read from that block).
 */
interface Checkpoint {
  mc: FullBlockId;
  shards: FullBlockId[];
}

function encodeCheckpoint(c: Checkpoint): string {
  const j = (id: FullBlockId): JsonBlockId => ({ workchain: id.workchain, shard: shardHex(id.shard), seqno: id.seqno, rootHash: hex(id.rootHash), fileHash: hex(id.fileHash) });
  return JSON.stringify({ v: 1, mc: j(c.mc), shards: c.shards.map(j) });
}

function decodeCheckpoint(text: string): Checkpoint | number {
  const bad = (why: string): NonRetryableError => new NonRetryableError('BAD_CHECKPOINT', `liteserver checkpoint ${JSON.stringify(text.slice(0, 200))}: ${why}`);
  if (/^\d+$/.test(text)) {
    const seqno = Number(text);
    if (!Number.isSafeInteger(seqno) || seqno < 1 || seqno > 0xffffffff) throw bad('seqno out of range');
    return seqno;
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw bad('neither a masterchain seqno nor JSON');
  }
  const id = (x: unknown, at: string): FullBlockId => {
    if (!isRecord(x)) throw bad(`${at}: expected an object`);
    const { workchain, shard, seqno, rootHash, fileHash } = x;
    if (typeof workchain !== 'number' || !Number.isInteger(workchain)) throw bad(`${at}.workchain`);
    if (typeof shard !== 'string' || !/^[0-9A-Fa-f]{1,16}$/.test(shard) || BigInt(`0x${shard}`) === 0n) throw bad(`${at}.shard`);
    if (typeof seqno !== 'number' || !Number.isInteger(seqno) || seqno < 0 || seqno > 0xffffffff) throw bad(`${at}.seqno`);
    const h = (s: unknown, name: string): Uint8Array => {
      if (typeof s !== 'string' || !/^[0-9a-fA-F]{64}$/.test(s)) throw bad(`${at}.${name}: expected 64 hex digits`);
      return new Uint8Array(Buffer.from(s, 'hex'));
    };
    return { workchain, shard: BigInt(`0x${shard}`), seqno, rootHash: h(rootHash, 'rootHash'), fileHash: h(fileHash, 'fileHash') };
  };
  if (!isRecord(v) || v.v !== 1) throw bad('unknown version');
  if (!Array.isArray(v.shards)) throw bad('shards: expected an array');
  const mc = id(v.mc, 'mc');
  if (mc.workchain !== -1 || mc.shard !== MC_SHARD) throw bad('mc: not a masterchain block id');
  return { mc, shards: v.shards.map((s: unknown, i) => id(s, `shards[${i}]`)) };
}

// ---------------------------------------------------------------------------------------------------------------
// The source
// ---------------------------------------------------------------------------------------------------------------

const SILENT: SourceLogger = { debug() {}, info() {}, warn() {} };

/**
 * Creates the liteserver block source. Nothing connects until `groups()` is iterated.
 *
 * Each group is one masterchain block N: the shard blocks committed by N and not by N-1 (found by walking prev
 * refs back from N's shard tips, through splits and merges, to the tips N-1 committed), oldest first (every block
 * after its parents), then N itself. The checkpoint is JSON (see {@link Checkpoint}); `groups(checkpoint)` resumes right after it.
 *
 * @example
 * const source = createLiteserverSource({ network: 'mainnet', fromSeqno: null, logger: logger.child({ module: 'liteserver' }) });
 * for await (const group of source.groups(await checkpoints.load(), shutdown.signal)) publish(group);
 */
export function createLiteserverSource(options: LiteserverSourceOptions): LiteserverSource {
  const logger = options.logger ?? SILENT;
  const globalId = GLOBAL_ID[options.network];
  if (globalId === undefined) throw new NonRetryableError('LITESERVER_CONFIG_INVALID', `unknown network ${String(options.network)}`);
  if (options.fromSeqno !== undefined && options.fromSeqno !== null && (!Number.isInteger(options.fromSeqno) || options.fromSeqno < 1)) {
    throw new NonRetryableError('LITESERVER_CONFIG_INVALID', `fromSeqno must be a positive integer, got ${options.fromSeqno}`);
  }
  const maxWalk = options.maxShardBlocksPerGroup ?? 10_000;
  let pool: Pool | null = null;
  let zeroStateRootHash: Uint8Array | null = null;
  let closed = false;

  const getPool = async (): Promise<Pool> => {
    if (pool) return pool;
    const parsed = parseGlobalConfig(options.globalConfig ?? (await bundledGlobalConfig(options.network)));
    zeroStateRootHash = parsed.zeroStateRootHash;
    pool = new Pool(parsed.liteservers, {
      queryTimeoutMs: options.queryTimeoutMs ?? 10_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
      backoffInitialMs: options.backoffInitialMs ?? 1_000,
      backoffMaxMs: options.backoffMaxMs ?? 60_000,
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
      maxIntegrityFailures: options.maxIntegrityFailures ?? Math.max(3, parsed.liteservers.length),
      logger,
    });
    logger.info({ network: options.network, liteservers: parsed.liteservers.length }, 'liteserver source ready');
    return pool;
  };

  /** Highest masterchain seqno some liteserver reported; avoids asking for the head before every block. */
  let knownHead = 0;

  const checkNetwork = (info: MasterchainInfo): void => {
    if (zeroStateRootHash && !equalBytes(info.init.rootHash, zeroStateRootHash)) {
      throw new WrongNetworkFailure(`zero state ${hex(info.init.rootHash)}, the config names ${hex(zeroStateRootHash)}`);
    }
  };

  const headSeqno = async (p: Pool, signal: AbortSignal): Promise<number> => {
    const info = await p.run(
      'masterchain head',
      async (c) => {
        const i = await c.getMasterchainInfo();
        checkNetwork(i);
        return i;
      },
      signal,
    );
    knownHead = Math.max(knownHead, info.last.seqno);
    return info.last.seqno;
  };

  /** Waits until some liteserver has masterchain block `seqno`: at the head, the next block is a gap to wait for. */
  const waitForMc = async (p: Pool, seqno: number, signal: AbortSignal): Promise<void> => {
    while (knownHead < seqno) {
      if ((await headSeqno(p, signal)) >= seqno) return;
      await delay(options.pollIntervalMs ?? 1_000, undefined, { signal });
    }
  };

  /** Masterchain block `seqno`, looked up and fetched from one liteserver, chained to `prev` when known. */
  const fetchMc = (p: Pool, seqno: number, prev: FullBlockId | null, signal: AbortSignal): Promise<VerifiedBlock> =>
    p.run(
      `(-1,${shardHex(MC_SHARD)},${seqno})`,
      async (c) => {
        const id = await c.lookupBlock({ workchain: -1, shard: MC_SHARD, seqno });
        const { id: answered, data } = await c.getBlock(id);
        const v = verifyBlock(id, answered, data, globalId);
        if (prev) {
          const ref = v.block.info.prevRef;
          if (ref.afterMerge || ref.prev.seqno !== prev.seqno || !equalBytes(ref.prev.rootHash, prev.rootHash) || !equalBytes(ref.prev.fileHash, prev.fileHash)) {
            throw new IntegrityFailure(`masterchain block ${seqno} does not follow the published block ${prev.seqno} (${hex(prev.rootHash)})`);
          }
        }
        return v;
      },
      signal,
    );

  const fetchById = (p: Pool, id: FullBlockId, signal: AbortSignal): Promise<VerifiedBlock> =>
    p.run(
      describeId(id),
      async (c) => {
        const { id: answered, data } = await c.getBlock(id);
        return verifyBlock(id, answered, data, globalId);
      },
      signal,
    );

  /**
   * Every shard block reachable from `tips` by prev refs and not committed by `committed`, oldest first. Fetches run
   * concurrently; the order is then fixed: a block comes after all of its parents, and among the blocks whose
   * parents are out, the lowest start_lt goes first (logical time grows along every shard chain, so this is the
   * order the blocks were made in), ties broken by workchain and shard so the same chain always gives the same group.
   */
  const walkShards = async (p: Pool, tips: FullBlockId[], committed: FullBlockId[], mcSeqno: number, signal: AbortSignal): Promise<VerifiedBlock[]> => {
    const fetched = new Map<string, Promise<VerifiedBlock | null>>();
    const key = (id: FullBlockId): string => `${id.workchain}:${id.shard}:${id.seqno}`;
    const parents = (b: VerifiedBlock): FullBlockId[] =>
      prevBlockIds(b.block).map((r) => ({ workchain: r.workchain, shard: BigInt(`0x${r.shard}`), seqno: r.seqno, rootHash: r.ref.rootHash, fileHash: r.ref.fileHash }));
    const visit = (id: FullBlockId): Promise<VerifiedBlock | null> => {
      // seqno 0 is a zero state, not a block: the walk of a brand-new workchain ends there.
      if (id.seqno === 0 || alreadyCommitted(id, committed)) return Promise.resolve(null);
      const k = key(id);
      let f = fetched.get(k);
      if (!f) {
        if (fetched.size >= maxWalk) {
          throw new NonRetryableError('LITESERVER_WALK_TOO_LONG', `masterchain block ${mcSeqno}: more than ${maxWalk} new shard blocks; refusing to walk further`);
        }
        f = fetchById(p, id, signal).then(async (b) => {
          await Promise.all(parents(b).map(visit));
          return b;
        });
        fetched.set(k, f);
      }
      return f;
    };
    await Promise.all(tips.map(visit));
    const blocks = (await Promise.all(fetched.values())).filter((b): b is VerifiedBlock => b !== null);
    const waiting = new Map(blocks.map((b) => [key(b.id), parents(b).filter((parent) => fetched.has(key(parent))).map(key)]));
    const out: VerifiedBlock[] = [];
    const done = new Set<string>();
    while (out.length < blocks.length) {
      let best: VerifiedBlock | null = null;
      for (const b of blocks) {
        if (done.has(key(b.id)) || !waiting.get(key(b.id))!.every((k) => done.has(k))) continue;
        if (!best || olderFirst(b, best) < 0) best = b;
      }
      out.push(best!);
      done.add(key(best!.id));
    }
    return out;
  };

  const raw = (v: VerifiedBlock, mcSeqno: number): RawBlock => ({
    id: { workchain: v.id.workchain, shard: shardHex(v.id.shard), seqno: v.id.seqno },
    rootHash: v.id.rootHash,
    fileHash: v.id.fileHash,
    data: v.data,
    mcSeqno,
  });

  /** A masterchain block whose prev ref has been checked against the block before it, with the tips it commits. */
  interface ChainedMc {
    mc: VerifiedBlock;
    checkpoint: Checkpoint;
  }

  async function* groups(checkpoint: string | null, outer: AbortSignal): AsyncGenerator<BlockGroup> {
    if (closed) throw new NonRetryableError('SOURCE_CLOSED', 'liteserver source is closed');
    const p = await getPool();
    // Work fetched ahead must stop when the caller stops iterating, whether it aborts or just breaks out.
    const stop = new AbortController();
    const signal = AbortSignal.any([outer, stop.signal]);
    try {
      // `last`: the masterchain block the previous group ended with and the shard tips it committed.
      let last: Checkpoint;
      let first: VerifiedBlock | null = null;
      const resume = checkpoint === null ? null : decodeCheckpoint(checkpoint);
      if (resume !== null && typeof resume === 'object') {
        last = resume;
      } else if (typeof resume === 'number') {
        await waitForMc(p, resume, signal);
        const mc = await fetchMc(p, resume, null, signal);
        last = { mc: mc.id, shards: shardTips(mc.block) };
      } else {
        const start = options.fromSeqno ?? (await headSeqno(p, signal));
        await waitForMc(p, start, signal);
        first = await fetchMc(p, start, null, signal);
        // The first group holds what `start` commits beyond `start - 1`, so the walk needs `start - 1`'s tips; its
        // id comes hash-chained from `start`'s prev ref. Before masterchain block 1 there is only the zero state.
        const prevRef = first.block.info.prevRef;
        if (prevRef.afterMerge) throw new BlockIntegrityError(`masterchain block ${start} claims a merge`);
        const prevId: FullBlockId = { workchain: -1, shard: MC_SHARD, seqno: prevRef.prev.seqno, rootHash: prevRef.prev.rootHash, fileHash: prevRef.prev.fileHash };
        const prevTips = prevId.seqno === 0 ? [] : shardTips((await fetchById(p, prevId, signal)).block);
        last = { mc: prevId, shards: prevTips };
        logger.info({ fromSeqno: start }, 'following the masterchain');
      }

      // Groups are prepared up to `prefetch` masterchain blocks ahead (only blocks some liteserver already reported,
      // so at the head nothing is polled twice) and yielded strictly in order. Group N's walk needs only masterchain
      // blocks N-1 and N, so walks of consecutive groups run concurrently and never overlap.
      const window = Math.max(1, options.prefetch ?? 4);
      const prepared: Array<Promise<{ group: BlockGroup; chained: ChainedMc }>> = [];
      let prevChained: Promise<Checkpoint> = Promise.resolve(last);
      let nextSeqno = last.mc.seqno + 1;
      const prepare = (seqno: number): Promise<{ group: BlockGroup; chained: ChainedMc }> => {
        const prev = prevChained;
        const fetched =
          first && first.id.seqno === seqno
            ? Promise.resolve(first)
            : (async () => {
                await waitForMc(p, seqno, signal);
                return fetchMc(p, seqno, null, signal);
              })();
        const chained = (async (): Promise<ChainedMc> => {
          const [mc, before] = await Promise.all([fetched, prev]);
          const ref = mc.block.info.prevRef;
          const follows = !ref.afterMerge && ref.prev.seqno === before.mc.seqno && equalBytes(ref.prev.rootHash, before.mc.rootHash) && equalBytes(ref.prev.fileHash, before.mc.fileHash);
          // Fetched ahead without its predecessor; if it does not chain, fetch it again with the check (and rotation).
          const ok = follows ? mc : await fetchMc(p, seqno, before.mc, signal);
          return { mc: ok, checkpoint: { mc: ok.id, shards: shardTips(ok.block) } };
        })();
        const group = (async () => {
          const [c, before] = await Promise.all([chained, prev]);
          const shardBlocks = await walkShards(p, c.checkpoint.shards, before.shards, seqno, signal);
          const blocks = [...shardBlocks.map((b) => raw(b, seqno)), raw(c.mc, seqno)];
          return { group: { mcSeqno: seqno, blocks, checkpoint: encodeCheckpoint(c.checkpoint) }, chained: c };
        })();
        // A prepared group may be abandoned (an earlier one failed, or the caller stopped): never an unhandled rejection.
        fetched.catch(() => {});
        chained.catch(() => {});
        group.catch(() => {});
        prevChained = chained.then((c) => c.checkpoint);
        prevChained.catch(() => {});
        return group;
      };
      for (;;) {
        while (prepared.length === 0 || (prepared.length < window && nextSeqno <= knownHead)) prepared.push(prepare(nextSeqno++));
        const { group } = await prepared.shift()!;
        first = null;
        yield group;
        signal.throwIfAborted();
      }
    } catch (e) {
      // Aborting is how the caller stops following: end the iteration quietly.
      if (outer.aborted) return;
      throw e;
    } finally {
      stop.abort();
    }
  }

  return {
    groups,
    async send(boc) {
      const p = await getPool();
      // A liteserver that refuses the message (its account does not accept it) is an answer, not a reason to ask
      // another: the pool's retry-until-available is for blocks.
      const refused = (e: unknown): never => {
        throw e instanceof LiteserverAnswerError ? new MessageRefusedError(e.message, { cause: e }) : e;
      };
      await p.run('sendMessage', (c) => c.sendMessage(boc).catch(refused), AbortSignal.timeout(2 * (options.queryTimeoutMs ?? 10_000)));
    },
    status: () => pool?.status() ?? [],
    async close() {
      closed = true;
      pool?.close();
    },
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
