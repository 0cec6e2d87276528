import type { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import type { TlbBuilder } from './builder.js';

/** `shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64 = ShardIdent` (block.tlb). */
export interface ShardIdent {
  pfxBits: number;
  workchain: number;
  prefix: bigint;
}

export function loadShardIdent(s: Slice): ShardIdent {
  const tag = s.loadUint(2);
  if (tag !== 0) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'ShardIdent', `tag $${tag.toString(2).padStart(2, '0')}`);
  const pfxBits = s.loadUint(6);
  if (pfxBits > 60) throw tlbError('TLB_INVALID', 'ShardIdent', `shard_pfx_bits ${pfxBits} > 60`);
  return { pfxBits, workchain: s.loadInt(32), prefix: s.loadUintBig(64) };
}

/**
 * The 64-bit shard id of a ShardIdent: the prefix's top `pfxBits` bits followed by a single 1 bit
 * (the "shard prefix with tag" that TON Center prints, e.g. 0x8000000000000000 for the whole workchain).
 */
export function shardId(id: ShardIdent): bigint {
  const tag = 1n << BigInt(63 - id.pfxBits);
  return (id.prefix & ~(tag * 2n - 1n) & 0xffffffffffffffffn) | tag;
}

export function storeShardIdent<C>(id: ShardIdent, b: TlbBuilder<C>): void {
  b.storeUint(0, 2);
  b.storeUint(id.pfxBits, 6);
  b.storeInt(id.workchain, 32);
  b.storeUint(id.prefix, 64);
}

/** The ShardIdent of a 64-bit shard id with tag bit (the inverse of {@link shardId}). */
export function shardIdent(workchain: number, shard: bigint): ShardIdent {
  const tz = shard === 0n ? 64 : 63 - (shard & -shard).toString(2).length + 1;
  return { pfxBits: tz, workchain, prefix: shard & (shard - 1n) };
}
