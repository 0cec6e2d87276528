import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type ConfigParams, loadConfigParams } from './ConfigParams.js';
import { type CryptoSignaturePair, loadCryptoSignaturePair } from './CryptoSignaturePair.js';
import { skipCurrencyCollection } from './CurrencyCollection.js';
import { walkHashmapE } from './Hashmap.js';
import { type ShardHash, loadShardHashes } from './ShardHashes.js';

/** `masterchain_block_extra#cca5 ... = McBlockExtra` (block.tlb). */
export interface McBlockExtra {
  keyBlock: boolean;
  shardHashes: ShardHash[];
  /** ShardFees entries: (workchain, shard) keys in key order. Values are not decoded. */
  shardFeeCount: number;
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
  // `_ (HashmapAugE 96 ShardFeeCreated ShardFeeCreated) = ShardFees`: an augmented map whose empty form still
  // carries the total extra, so both forms end with a ShardFeeCreated (two CurrencyCollections).
  let shardFeeCount = 0;
  const skipFee = (v: Slice): void => {
    skipCurrencyCollection(v);
    skipCurrencyCollection(v);
  };
  walkHashmapE(s, 96, () => shardFeeCount++, skipFee);
  skipFee(s);
  const r = new Slice(s.boc, s.loadRef());
  const prevBlkSignatures: CryptoSignaturePair[] = [];
  walkHashmapE(r, 16, (v) => prevBlkSignatures.push(loadCryptoSignaturePair(v)));
  const recoverCreateMsg = r.loadBit() ? r.loadRef() : null;
  const mintMsg = r.loadBit() ? r.loadRef() : null;
  const config = keyBlock ? loadConfigParams(s) : null;
  return { keyBlock, shardHashes, shardFeeCount, prevBlkSignatures, recoverCreateMsg, mintMsg, config };
}

