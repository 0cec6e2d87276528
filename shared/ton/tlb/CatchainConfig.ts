import type { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';

/**
 * ConfigParam 28 (block.tlb): `catchain_config#c1 mc_catchain_lifetime:uint32 shard_catchain_lifetime:uint32
 * shard_validators_lifetime:uint32 shard_validators_num:uint32` and `catchain_config_new#c2 flags:(## 7) { flags = 0 }
 * shuffle_mc_validators:Bool …` (the old form never shuffles).
 */
export interface CatchainConfig {
  shuffleMcValidators: boolean;
  mcCatchainLifetime: number;
  shardCatchainLifetime: number;
  shardValidatorsLifetime: number;
  shardValidatorsNum: number;
}

export function loadCatchainConfig(s: Slice): CatchainConfig {
  const tag = s.loadUint(8);
  let shuffleMcValidators = false;
  if (tag === 0xc2) {
    const flags = s.loadUint(7);
    if (flags !== 0) throw tlbError('TLB_INVALID', 'CatchainConfig', `flags ${flags}`);
    shuffleMcValidators = s.loadBit();
  } else if (tag !== 0xc1) {
    throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'CatchainConfig', `tag #${tag.toString(16)}`);
  }
  return {
    shuffleMcValidators,
    mcCatchainLifetime: s.loadUint(32),
    shardCatchainLifetime: s.loadUint(32),
    shardValidatorsLifetime: s.loadUint(32),
    shardValidatorsNum: s.loadUint(32),
  };
}
