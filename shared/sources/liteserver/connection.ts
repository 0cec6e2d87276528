/**
 * One ADNL connection to one liteserver (lite_api.tl). The only importer of `ton-lite-client` (house-style rule 4):
 * the rest of the source sees {@link LiteserverConnection}.
 */
import { LiteSingleEngine } from 'ton-lite-client';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { type FullBlockId, LiteserverAnswerError, type LiteserverEndpoint, LiteserverUnavailableError } from './types.js';

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
  /**
   * `liteServer.getAccountState` at block `id`: the answer as served (unverified; shared/ton/account-proof.ts checks
   * it). `proof` is a bag of the block proof and the state proof; `state` the Account BOC (empty when absent).
   */
  getAccountState(
    id: FullBlockId,
    account: { workchain: number; hash: Uint8Array },
  ): Promise<{ id: FullBlockId; shardblk: FullBlockId; shardProof: Uint8Array; proof: Uint8Array; state: Uint8Array }>;
  /** `liteServer.sendMessage`: an inbound external message BOC; the liteserver checks it on its state first. */
  sendMessage(boc: Uint8Array): Promise<number>;
  /** `liteServer.getShardBlockProof`: as served (unverified; shared/ton/shard-block-proof.ts checks it). */
  getShardBlockProof(id: FullBlockId): Promise<{ masterchainId: FullBlockId; links: Array<{ id: FullBlockId; proof: Uint8Array }> }>;
  /**
   * `liteServer.getBlockProof mode:0x1001 known_block target_block`: the masterchain block proof links from `known`
   * to `target` as served (unverified; shared/ton/block-signatures.ts checks forward links, shared/ton/mc-back-proof.ts
   * backward ones).
   */
  getBlockProof(known: FullBlockId, target: FullBlockId): Promise<BlockProofAnswer>;
  /** Closes the connection; pending queries fail. Idempotent. */
  close(): void;
}

/** `liteServer.partialBlockProof complete:Bool from to steps:(vector liteServer.BlockLink)` in {@link FullBlockId} form. */
export interface BlockProofAnswer {
  complete: boolean;
  from: FullBlockId;
  to: FullBlockId;
  steps: Array<
    | {
        forward: {
          toKeyBlock: boolean;
          from: FullBlockId;
          to: FullBlockId;
          destProof: Uint8Array;
          configProof: Uint8Array;
          signatures: { validatorSetHash: number; catchainSeqno: number; signatures: Array<{ nodeIdShort: Uint8Array; signature: Uint8Array }> };
        };
      }
    | {
        backward: {
          toKeyBlock: boolean;
          from: FullBlockId;
          to: FullBlockId;
          destProof: Uint8Array;
          proof: Uint8Array;
          stateProof: Uint8Array;
        };
      }
  >;
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

export class Connection implements LiteserverConnection {
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
  async getAccountState(
    id: FullBlockId,
    account: { workchain: number; hash: Uint8Array },
  ): Promise<{ id: FullBlockId; shardblk: FullBlockId; shardProof: Uint8Array; proof: Uint8Array; state: Uint8Array }> {
    const r = await this.query(Functions.liteServer_getAccountState, {
      kind: 'liteServer.getAccountState',
      id: toTl(id),
      account: { kind: 'liteServer.accountId', workchain: account.workchain, id: Buffer.from(account.hash) },
    });
    return { id: fromTl(r.id), shardblk: fromTl(r.shardblk), shardProof: new Uint8Array(r.shardProof), proof: new Uint8Array(r.proof), state: new Uint8Array(r.state) };
  }

  /** `liteServer.getShardBlockProof`: the links from a masterchain block down to shard block `id` (unchecked). */
  async getShardBlockProof(id: FullBlockId): Promise<{ masterchainId: FullBlockId; links: Array<{ id: FullBlockId; proof: Uint8Array }> }> {
    const r = await this.query(Functions.liteServer_getShardBlockProof, { kind: 'liteServer.getShardBlockProof', id: toTl(id) });
    return { masterchainId: fromTl(r.masterchainId), links: r.links.map((l) => ({ id: fromTl(l.id), proof: new Uint8Array(l.proof) })) };
  }

  /** `liteServer.getBlockProof` with mode 0x1001 (bit 0: target_block given; bit 12: built on the later block's state, not the newest: liteserver.cpp). */
  async getBlockProof(known: FullBlockId, target: FullBlockId): Promise<BlockProofAnswer> {
    const r = await this.query(Functions.liteServer_getBlockProof, { kind: 'liteServer.getBlockProof', mode: 0x1001, knownBlock: toTl(known), targetBlock: toTl(target) });
    return {
      complete: r.complete,
      from: fromTl(r.from),
      to: fromTl(r.to),
      steps: r.steps.map((step) =>
        step.kind === 'liteServer.blockLinkForward'
          ? {
              forward: {
                toKeyBlock: step.toKeyBlock,
                from: fromTl(step.from),
                to: fromTl(step.to),
                destProof: new Uint8Array(step.destProof),
                configProof: new Uint8Array(step.configProof),
                signatures: {
                  validatorSetHash: step.signatures.validatorSetHash,
                  catchainSeqno: step.signatures.catchainSeqno,
                  signatures: step.signatures.signatures.map((x) => ({ nodeIdShort: new Uint8Array(x.nodeIdShort), signature: new Uint8Array(x.signature) })),
                },
              },
            }
          : {
              backward: {
                toKeyBlock: step.toKeyBlock,
                from: fromTl(step.from),
                to: fromTl(step.to),
                destProof: new Uint8Array(step.destProof),
                proof: new Uint8Array(step.proof),
                stateProof: new Uint8Array(step.stateProof),
              },
            },
      ),
    };
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
