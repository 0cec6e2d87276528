import type { Boc } from '../boc/reader.js';
import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { type BlockExtra, loadBlockExtra } from './BlockExtra.js';
import { type BlockInfo, loadBlockInfo } from './BlockInfo.js';
import { type MerkleUpdate, loadMerkleUpdate } from './MerkleUpdate.js';
import { type ValueFlow, loadValueFlow } from './ValueFlow.js';
import type { TlbBuilder } from './builder.js';

/**
 * `block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow state_update:^(MERKLE_UPDATE ShardState)
 * extra:^BlockExtra = Block` (block.tlb). The state update is read only down to its Merkle-update header.
 */
export interface Block {
  cell: number;
  globalId: number;
  info: BlockInfo;
  valueFlow: ValueFlow;
  stateUpdate: MerkleUpdate;
  extra: BlockExtra;
}

export function loadBlock(boc: Boc, cell: number = boc.root): Block {
  const s = new Slice(boc, cell);
  const tag = s.loadUint(32);
  if (tag !== 0x11ef55aa) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'Block', `unknown constructor tag #${tag.toString(16).padStart(8, '0')} (block#11ef55aa expected)`);
  const globalId = s.loadInt(32);
  const info = loadBlockInfo(new Slice(boc, s.loadRef()));
  const valueFlow = loadValueFlow(new Slice(boc, s.loadRef()));
  const stateUpdate = loadMerkleUpdate(boc, s.loadRef());
  const extra = loadBlockExtra(new Slice(boc, s.loadRef()));
  return { cell, globalId, info, valueFlow, stateUpdate, extra };
}

/** Writes `block#11ef55aa` from its four finished parts (the state update is the exotic Merkle-update cell). */
export function storeBlock<C>(blk: { globalId: number; info: C; valueFlow: C; stateUpdate: C; extra: C }, b: TlbBuilder<C>): void {
  b.storeUint(0x11ef55aa, 32);
  b.storeInt(blk.globalId, 32);
  b.storeRef(blk.info);
  b.storeRef(blk.valueFlow);
  b.storeRef(blk.stateUpdate);
  b.storeRef(blk.extra);
}
