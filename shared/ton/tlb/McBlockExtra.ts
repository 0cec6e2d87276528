import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type ConfigParams, loadConfigParams } from './ConfigParams.js';
import { type CryptoSignaturePair, loadCryptoSignaturePair } from './CryptoSignaturePair.js';
import { walkHashmapE } from './Hashmap.js';
import { type ShardFee, type ShardFeeCreated, loadShardFees } from './ShardFees.js';
import { type ShardHash, loadShardHashes } from './ShardHashes.js';

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

