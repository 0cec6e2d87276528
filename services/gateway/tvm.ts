import type { FastifyRequest } from 'fastify';
import type { BlockSource } from '../../shared/sources/source.js';
import type { TvmAccountState } from '../../shared/tvm/account.js';
import type { Tvm } from '../../shared/tvm/executor.js';
import { MAINNET_CONFIG_BOC } from '../../shared/tvm/mainnet-config.js';
import { withGetMethodCache } from '../../shared/tvm/result-cache.js';
import { type AccountStateProvider, type StateAt, type TvmBlockRef, TvmService, createStackReader } from '../../shared/tvm/service.js';
import { BaseError } from '../../shared/runtime/errors.js';
import { ApiError } from './errors.js';
import { blockById } from './repo/blocks.js';
import type { Db } from './repo/db.js';
import type { BlockRecord } from './repo/records.js';
import type { RouteDeps } from './routes/context.js';
import { createVersionedReads } from './versioned-reads.js';
import { type StoredState, latestStoredState, storedStateAt } from './repo/tvm-states.js';

/**
 * The gateway's TVM: get-methods, fee estimates and sending (routes/v2-tvm.ts, routes/v3-tvm.ts) on the store's
 * account states, run on a worker pool (shared/tvm/pool.ts) so that no VM runs on the event loop.
 *
 * States come from the store. Block state updates prune code and data, so the store may lack them; a source that
 * holds the chain's state (the devnet) is then asked for the account's whole current state. Without such a source
 * an active account without code and data cannot run get-methods (an error says so). The configuration is the
 * source's (the devnet's), else the embedded mainnet configuration.
 */

export interface GatewayTvmOptions {
  tvm: Tvm;
  /** What the source the gateway runs beside offers (`tonflow start`); absent for a gateway alone. */
  source?: Pick<BlockSource, 'send' | 'accountState' | 'blockchainConfig' | 'shardBlockProof'>;
  /** Gas a get-method may use. Default 1,000,000 (a liteserver's `runSmcMethod`). */
  gasLimit?: bigint;
}

/** What the gateway's other reads share with the TVM's (app.ts). */
export interface GatewayTvmShared {
  /** The masterchain head, shared while the store is unchanged (RouteDeps.head). */
  head: RouteDeps['head'];
  /** The store's version (response-cache.ts): latest states read from the store are shared while it holds. */
  version: () => number | null;
}

/** Latest account states kept for the store's current version, and their total size (code is shared by hash). */
const LATEST_STATES_KEPT = 10_000;
const LATEST_STATES_BYTES = 64 << 20;
/** Get-method outcomes kept (shared/tvm/result-cache.ts). */
const GET_METHOD_OUTCOMES_KEPT = 10_000;
const GET_METHOD_OUTCOME_BYTES = 32 << 20;

export interface GatewayTvm {
  /** A service whose store reads follow the request's deadline. */
  forRequest(req: FastifyRequest): TvmService;
}

const MC_SHARD = 1n << 63n;
const ZERO_HASH = new Uint8Array(32);

/** The state a TON Center v2 server reports for an account the chain has never seen. */
function nonexistent(address: string): TvmAccountState {
  return { address, status: 'nonexist', balance: 0n, code: null, data: null, lastTransLt: 0n, lastTransHash: ZERO_HASH };
}

function fromStore(address: string, s: StoredState): TvmAccountState {
  const status = s.status === 'active' || s.status === 'uninit' || s.status === 'frozen' ? s.status : 'nonexist';
  return {
    address,
    status,
    balance: BigInt(s.balance),
    code: s.code_boc,
    data: s.data_boc,
    lastTransLt: BigInt(s.last_trans_lt),
    lastTransHash: Buffer.from(s.last_trans_hash, 'base64'),
    frozenHash: s.frozen_hash ? Buffer.from(s.frozen_hash, 'base64') : null,
  };
}

function blockRef(b: BlockRecord): TvmBlockRef {
  return {
    workchain: b.workchain,
    shard: BigInt('0x' + b.shard),
    seqno: b.seqno,
    rootHash: Buffer.from(b.root_hash, 'base64'),
    fileHash: Buffer.from(b.file_hash, 'base64'),
  };
}

export function createGatewayTvm(db: Db, opts: GatewayTvmOptions, shared: GatewayTvmShared): GatewayTvm {
  const source = opts.source;
  const tvm = withGetMethodCache(opts.tvm, { entries: GET_METHOD_OUTCOMES_KEPT, maxBytes: GET_METHOD_OUTCOME_BYTES });
  const latest = createVersionedReads<StoredState | null>(shared.version, {
    entries: LATEST_STATES_KEPT,
    weigh: (s) => (s?.data_boc?.length ?? 0) + 256,
    maxWeight: LATEST_STATES_BYTES,
  });
  const config = source?.blockchainConfig ? () => source.blockchainConfig!() : async () => MAINNET_CONFIG_BOC;
  const send = source?.send ? (boc: Uint8Array) => source.send!(boc) : undefined;
  const gasLimit = opts.gasLimit ?? 1_000_000n;
  const readStack = createStackReader();

  const provider = (req: FastifyRequest): AccountStateProvider => ({
    async accountState(address, at): Promise<StateAt> {
      // Addresses arrive as the gateway normalises them (raw, upper-case hex); the TVM and the store agree on it.
      if (at.seqno !== undefined) {
        const block = await blockById(db, req.tf, { workchain: -1, shard: MC_SHARD.toString(), seqno: at.seqno });
        if (!block) throw new ApiError(500, `LITE_SERVER_NOTREADY: cannot find block (-1,8000000000000000) seqno=${at.seqno}: seqno not in db`);
        const s = await storedStateAt(db, req.tf, address, at.seqno);
        return { state: s ? fromStore(address, s) : nonexistent(address), block: blockRef(block), utime: Number(block.gen_utime) };
      }
      const [ends, stored] = await Promise.all([shared.head(req.tf), latest.get(`${req.tf.timeoutMs}|${address}`, () => latestStoredState(db, req.tf, address))]);
      const block = ends ? blockRef(ends.last) : null;
      const utime = ends ? Number(ends.last.gen_utime) : Math.floor(Date.now() / 1000);
      let state = stored ? fromStore(address, stored) : null;
      // The store lacks code or data (or the account): the source's whole current state, when it has one.
      if ((!state || state.code === null || state.data === null) && source?.accountState) state = await source.accountState(address);
      return { state: state ?? nonexistent(address), block, utime };
    },
  });

  return {
    forRequest: (req) => new TvmService({ tvm, states: provider(req), config, gasLimit, readStack, ...(send ? { send } : {}) }),
  };
}

/** The status and text TON Center answers a failed TVM operation with (api-v2.md §1 error table). */
export function tvmApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const code = e instanceof BaseError ? e.code : '';
  const message = e instanceof Error ? e.message : String(e);
  switch (code) {
    case 'TVM_BAD_STACK':
    case 'TVM_BAD_MESSAGE':
      return new ApiError(422, message);
    // What a liteserver answers a message its account does not accept: tonlib reports it as LITE_SERVER_UNKNOWN.
    case 'TVM_MESSAGE_REJECTED':
    case 'LITESERVER_MESSAGE_REFUSED':
      return new ApiError(500, `LITE_SERVER_UNKNOWN: ${message}`);
    case 'TVM_TIMEOUT':
      return new ApiError(504, message);
    case 'TVM_BUSY':
    case 'TVM_SEND_UNAVAILABLE':
    case 'TVM_STATE_UNAVAILABLE':
      return new ApiError(503, message);
    case 'TVM_RUN_FAILED':
    case 'TVM_FAILED':
    case 'TVM_CLOSED':
      return new ApiError(500, message);
    default:
      throw e;
  }
}
