import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';

/**
 * The head of `masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams ^[ flags:(## 16)
 * { flags <= 1 } validator_info:ValidatorInfo prev_blocks:OldMcBlocksInfo after_key_block:Bool
 * last_key_block:(Maybe ExtBlkRef) block_create_stats:(flags . 0)?BlockCreateStats ] global_balance:CurrencyCollection
 * = McStateExtra` (block.tlb), read up to `prev_blocks`: `validator_info$_ validator_list_hash_short:uint32
 * catchain_seqno:uint32 nx_cc_updated:Bool`, and a slice at `prev_blocks` (shared/ton/tlb/OldMcBlocksInfo.ts).
 * `_ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams` is skipped; the inner cell must be present
 * (not a pruned branch) in a Merkle proof.
 */
export interface McStateExtraHead {
  flags: number;
  validatorListHashShort: number;
  catchainSeqno: number;
  nxCcUpdated: boolean;
  /** At `prev_blocks:OldMcBlocksInfo`. */
  prevBlocks: Slice;
}

export function loadMcStateExtraHead(s: Slice): McStateExtraHead {
  const tag = s.loadUint(16);
  if (tag !== 0xcc26) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'McStateExtra', `tag #${tag.toString(16).padStart(4, '0')}`);
  if (s.loadBit()) s.loadRef(); // shard_hashes:(HashmapE 32 ^(BinTree ShardDescr))
  s.skip(256); // config_addr
  s.loadRef(); // config
  const inner = s.loadRef();
  if (s.boc.isExotic(inner)) throw tlbError('TLB_INVALID', 'McStateExtra', 'its prev_blocks cell is pruned');
  const r = new Slice(s.boc, inner);
  const flags = r.loadUint(16);
  if (flags > 1) throw tlbError('TLB_INVALID', 'McStateExtra', `flags ${flags} > 1`);
  const validatorListHashShort = r.loadUint(32);
  const catchainSeqno = r.loadUint(32);
  const nxCcUpdated = r.loadBit();
  return { flags, validatorListHashShort, catchainSeqno, nxCcUpdated, prevBlocks: r };
}
