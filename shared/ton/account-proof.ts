import { NonRetryableError } from '../runtime/errors.js';
import { Boc } from './boc/reader.js';
import { Slice } from './boc/slice.js';
import { skipCurrencyCollection } from './tlb/CurrencyCollection.js';
import { PRUNED, lookupHashmapAugEProven } from './tlb/Hashmap.js';
import { loadShardIdent, shardId } from './tlb/ShardIdent.js';

/**
 * Checks a liteserver's `liteServer.accountState` answer (lite_api.tl) for a shard block the caller has verified:
 * that the account state it serves is the one that block's state holds. The answer's `proof` is a bag of two Merkle
 * proofs (tvm.pdf §3.1.7, exotic type 3), as the node's liteserver builds them:
 *
 * 1. the block: `block#11ef55aa … info:^BlockInfo … state_update:^(MERKLE_UPDATE ShardState) …` with everything but
 *    the header and the update's hashes pruned. Its hash must be the block's root hash (the verified header), its
 *    BlockInfo must name the block, and its `state_update` gives the hash of the state after the block;
 * 2. the state: `ShardStateUnsplit` (or `split_state`) with everything but the path to the account in
 *    `accounts:^ShardAccounts` (block.tlb `HashmapAugE 256 ShardAccount DepthBalanceInfo`) pruned. Its hash must be
 *    the block's new state hash. The path either ends in the account's ShardAccount (`account_descr$_
 *    account:^Account last_trans_hash:bits256 last_trans_lt:uint64`, the Account itself usually pruned) or proves
 *    the account absent; a path that runs into a pruned branch proves nothing and is refused.
 *
 * `state` (the Account BOC) must then hash to the ShardAccount's `account` reference; an absent account's state is
 * empty (or `account_none$0`).
 */

/** An answer that does not prove what it claims: the liteserver served bad bytes (never retryable as such). */
export class AccountProofError extends NonRetryableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ACCOUNT_PROOF_INVALID', message, options);
  }
}

export interface ProofBlockId {
  workchain: number;
  shard: bigint;
  seqno: number;
  /** The block's root hash, from a verified source (the block walk's hash chain). */
  rootHash: Uint8Array;
}

/** What the proof establishes about the account in the block's state. */
export type ProvenShardAccount =
  | {
      found: true;
      /** Level-0 hash of the Account cell: the account state hash. */
      accountHash: Uint8Array;
      lastTransHash: Uint8Array;
      lastTransLt: bigint;
      /** The state hash the block names (its state update's new side). */
      stateHash: Uint8Array;
    }
  | { found: false; stateHash: Uint8Array };

const MERKLE_PROOF = 3;
const MERKLE_UPDATE = 4;

/** Checks `proof` (both roots) for `address` in block `block`. Throws {@link AccountProofError}. */
export function verifyShardAccountProof(block: ProofBlockId, address: { workchain: number; hash: Uint8Array }, proof: Uint8Array): ProvenShardAccount {
  let boc: Boc;
  try {
    boc = Boc.parse(proof);
    // Every Merkle cell's stored hash is checked against its child here (a forged proof fails in hashing).
    boc.hashAll();
  } catch (e) {
    throw new AccountProofError(`account proof is not a valid bag of cells: ${(e as Error).message}`, { cause: e });
  }
  if (boc.roots.length !== 2) throw new AccountProofError(`account proof has ${boc.roots.length} roots, expected 2 (block proof, state proof)`);
  const blockRoot = merkleProofChild(boc, boc.roots[0]!, 'block proof');
  if (!equal(boc.hashAt(blockRoot, 0), block.rootHash)) {
    throw new AccountProofError(`block proof is for block ${hex(boc.hashAt(blockRoot, 0))}, not ${hex(block.rootHash)}`);
  }
  let stateHash: Uint8Array;
  try {
    const s = new Slice(boc, blockRoot);
    if (s.loadUint(32) !== 0x11ef55aa) throw new Error('not a block#11ef55aa');
    s.loadInt(32);
    const infoCell = s.loadRef();
    if (boc.isExotic(infoCell)) throw new Error('BlockInfo is pruned');
    // `block_info#9bc7a987 version:uint32 not_master:(## 1) … vert_seqno_incr:(## 1) flags:(## 8) seq_no:# vert_seq_no:#
    // shard:ShardIdent …`: only what names the block is read (the references after it may be pruned).
    const info = new Slice(boc, infoCell);
    if (info.loadUint(32) !== 0x9bc7a987) throw new Error('BlockInfo has another tag');
    info.skip(32 + 8 + 8);
    const seqno = info.loadUint(32);
    info.skip(32);
    const shard = loadShardIdent(info);
    if (shard.workchain !== block.workchain || shardId(shard) !== block.shard || seqno !== block.seqno) {
      throw new Error(`its header names block (${shard.workchain},${shardId(shard).toString(16)},${seqno})`);
    }
    s.loadRef();
    const update = s.loadRef();
    if (boc.exoticType(update) !== MERKLE_UPDATE) throw new Error('state_update is not a Merkle update');
    // `!merkle_update#04 {X:Type} old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16 old:^X new:^X`
    const u = new Slice(boc, update);
    u.skip(8 + 256);
    stateHash = u.loadBytes(32);
  } catch (e) {
    if (e instanceof AccountProofError) throw e;
    throw new AccountProofError(`block proof: ${(e as Error).message}`, { cause: e });
  }
  const stateRoot = merkleProofChild(boc, boc.roots[1]!, 'state proof');
  if (!equal(boc.hashAt(stateRoot, 0), stateHash)) {
    throw new AccountProofError(`state proof is for state ${hex(boc.hashAt(stateRoot, 0))}, the block's state is ${hex(stateHash)}`);
  }
  try {
    for (const accounts of accountsDicts(boc, stateRoot, address)) {
      const v = lookupHashmapAugEProven(new Slice(boc, accounts), 256, address.hash, skipDepthBalanceInfo);
      if (v === PRUNED) throw new Error('the path to the account is pruned: the proof does not cover it');
      if (v === null) return { found: false, stateHash };
      const account = v.loadRef();
      return { found: true, accountHash: boc.hashAt(account, 0).slice(), lastTransHash: v.loadBytes(32).slice(), lastTransLt: v.loadUintBig(64), stateHash };
    }
    throw new Error('no accounts dictionary covers the account');
  } catch (e) {
    if (e instanceof AccountProofError) throw e;
    throw new AccountProofError(`state proof: ${(e as Error).message}`, { cause: e });
  }
}

/**
 * Checks the served `state` against what the proof established: the Account BOC's root hash must be the proven
 * account hash; an absent account comes as an empty `state` or `account_none$0`. Throws {@link AccountProofError}.
 */
export function verifyAccountState(proven: ProvenShardAccount, state: Uint8Array): void {
  if (!proven.found) {
    if (state.length === 0) return;
    const boc = parseState(state);
    const s = new Slice(boc, boc.root);
    if (boc.refCount(boc.root) === 0 && s.remainingBits === 1 && !s.loadBit()) return;
    throw new AccountProofError('the proof shows the account absent, the answer serves a state for it');
  }
  if (state.length === 0) throw new AccountProofError('the proof shows the account present, the answer serves no state');
  const boc = parseState(state);
  const got = boc.hashAt(boc.root, 0);
  if (!equal(got, proven.accountHash)) throw new AccountProofError(`state hashes to ${hex(got)}, the proof names account ${hex(proven.accountHash)}`);
}

function parseState(state: Uint8Array): Boc {
  try {
    const boc = Boc.parse(state);
    boc.hashAll();
    if (boc.roots.length !== 1) throw new Error(`${boc.roots.length} roots`);
    return boc;
  } catch (e) {
    throw new AccountProofError(`account state is not a bag of cells: ${(e as Error).message}`, { cause: e });
  }
}

function merkleProofChild(boc: Boc, root: number, what: string): number {
  if (boc.exoticType(root) !== MERKLE_PROOF || boc.refCount(root) !== 1) throw new AccountProofError(`${what} is not a Merkle proof cell`);
  return boc.ref(root, 0);
}

/**
 * The `accounts:^ShardAccounts` cell(s) of a state that may hold `address`: of `shard_state#9023afe2`, or of the
 * half of `split_state#5f327da5 left right` whose shard (ShardIdent in each half) contains the address.
 */
function accountsDicts(boc: Boc, cell: number, address: { workchain: number; hash: Uint8Array }): number[] {
  if (boc.isExotic(cell)) return [];
  const s = new Slice(boc, cell);
  const tag = s.loadUint(32);
  if (tag === 0x5f327da5) return [...accountsDicts(boc, s.loadRef(), address), ...accountsDicts(boc, s.loadRef(), address)];
  if (tag !== 0x9023afe2) throw new Error(`state has tag #${tag.toString(16)}, not a ShardState`);
  s.loadInt(32);
  // `shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64`
  s.skip(2);
  const pfxBits = s.loadUint(6);
  const workchain = s.loadInt(32);
  const prefix = s.loadUintBig(64);
  if (workchain !== address.workchain || !inShard(prefix, pfxBits, address.hash)) return [];
  s.skip(32 + 32 + 32 + 64 + 32);
  s.loadRef();
  s.skip(1);
  return [s.loadRef()];
}

function inShard(prefix: bigint, bits: number, hash: Uint8Array): boolean {
  if (bits === 0) return true;
  const top = BigInt('0x' + hex(hash.subarray(0, 8)));
  const shift = BigInt(64 - bits);
  return top >> shift === prefix >> shift;
}

/** `depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection = DepthBalanceInfo`. */
function skipDepthBalanceInfo(s: Slice): void {
  s.skip(5);
  skipCurrencyCollection(s);
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}
