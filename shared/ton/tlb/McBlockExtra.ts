import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type ConfigParams, loadConfigParams } from './ConfigParams.js';
import { type CryptoSignaturePair, loadCryptoSignaturePair } from './CryptoSignaturePair.js';
import { walkHashmapE } from './Hashmap.js';
import { type ShardFee, type ShardFeeCreated, loadShardFees, storeShardFees } from './ShardFees.js';
import { type ShardHash, loadShardHashes } from './ShardHashes.js';
import type { TlbBuilder } from './builder.js';
import { storeHashmapE } from './Hashmap.js';
import { storeShardHashes } from './ShardHashes.js';

/** `masterchain_block_extra#cca5 ... = McBlockExtra` (block.tlb). */
export interface McBlockExtra {
  keyBlock: boolean;
  shardHashes: ShardHash[];
  /** ShardFees: fees and created value per shard, in key order, and their total. */
  shardFees: ShardFee[];
  shardFeesTotal: ShardFeeCreated;
  prevBlkSignatures: CryptoSignaturePair[];
  recoverCreateMsg: number | null;
  mintMsg: number | null;
  config: ConfigParams | null;
}

export function loadMcBlockExtra(s: Slice): McBlockExtra {
  const tag = s.loadUint(16);
  if (tag !== 0xcca5) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'McBlockExtra', `tag #${tag.toString(16).padStart(4, '0')}`);
  const keyBlock = s.loadBit();
  const shardHashes = loadShardHashes(s);
  const { entries: shardFees, total: shardFeesTotal } = loadShardFees(s);
  const r = new Slice(s.boc, s.loadRef());
  const prevBlkSignatures: CryptoSignaturePair[] = [];
  walkHashmapE(r, 16, (v) => prevBlkSignatures.push(loadCryptoSignaturePair(v)));
  const recoverCreateMsg = r.loadBit() ? r.loadRef() : null;
  const mintMsg = r.loadBit() ? r.loadRef() : null;
  const config = keyBlock ? loadConfigParams(s) : null;
  return { keyBlock, shardHashes, shardFees, shardFeesTotal, prevBlkSignatures, recoverCreateMsg, mintMsg, config };
}

/** A non-key `masterchain_block_extra#cca5` without signatures, recover or mint messages. */
export interface McBlockExtraInput {
  shardHashes: ReadonlyArray<ShardHash>;
  shardFees: ReadonlyArray<ShardFee>;
}

/** Writes McBlockExtra; returns the ShardFees total (the `fees_imported` of the block's value flow). */
export function storeMcBlockExtra<C>(e: McBlockExtraInput, b: TlbBuilder<C>): ShardFeeCreated {
  b.storeUint(0xcca5, 16);
  b.storeBit(0);
  storeShardHashes(e.shardHashes, b);
  const total = storeShardFees(e.shardFees, b);
  const r = b.child();
  storeHashmapE(r, [], 16, () => {}); // prev_blk_signatures
  r.storeBit(0); // recover_create_msg
  r.storeBit(0); // mint_msg
  b.storeRef(r.endCell());
  return total;
}
