import { type CellNode, sliceToCell, subsliceToCell } from '../boc/built.js';
import { Slice } from '../boc/slice.js';
import { type CommonMsgInfo, loadCommonMsgInfo } from './CommonMsgInfo.js';
import { type StateInit, loadStateInit } from './StateInit.js';

/**
 * `message$_ {X:Type} info:CommonMsgInfo init:(Maybe (Either StateInit ^StateInit)) body:(Either X ^X)
 * = Message X` (block.tlb).
 *
 * `body` and `init.node` are the cells TON Center hashes and serializes (indexing-semantics §2.1): the referenced
 * cell, or, when the value is inline, a cell built from exactly those bits and references.
 */
export interface Message {
  cell: number;
  info: CommonMsgInfo;
  init: { node: CellNode; value: StateInit } | null;
  body: CellNode;
  /** A slice positioned at the first bit of the body, for reading its opcode or text. */
  bodySlice: Slice;
}

export function loadMessage(s: Slice): Message {
  const info = loadCommonMsgInfo(s);
  let init: Message['init'] = null;
  if (s.loadBit()) {
    if (s.loadBit()) {
      const ref = s.loadRef();
      init = { node: ref, value: loadStateInit(new Slice(s.boc, ref)) };
    } else {
      const fromBit = s.pos;
      const fromRef = s.refPos;
      const value = loadStateInit(s);
      init = { node: subsliceToCell(s, fromBit, s.pos, fromRef, s.refPos), value };
    }
  }
  if (s.loadBit()) {
    const ref = s.loadRef();
    return { cell: s.cell, info, init, body: ref, bodySlice: new Slice(s.boc, ref) };
  }
  const bodySlice = s.clone();
  return { cell: s.cell, info, init, body: sliceToCell(s), bodySlice };
}

