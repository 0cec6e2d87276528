import { Boc } from '../boc/reader.js';
import { Slice } from '../boc/slice.js';
import { b64 } from '../records/format.js';
import { cellHash, sliceToCell } from '../boc/built.js';
import { loadAddr, cellToBocBase64 } from '../bodies/cell.js';
import { EventNode, type TraceMessage } from './trace.js';

/**
 * Messages a wallet's external message asked to send (wallet v3 `signature subwallet valid_until seqno` + refs,
 * v4 the same with an op byte, v5r1 `op wallet_id valid_until seqno (Maybe ^OutList)`), for a trace whose only
 * transaction is a failed external: they become "ghost" nodes (S.3 fallback).
 */
interface Payload {
  dest: string | null;
  value: bigint;
  bounce: boolean;
  bounced: boolean;
  body: string;
  opcode: number | null;
  hash: string;
}

function loadCurrencyCollection(s: Slice, withExtra: boolean): bigint {
  const grams = s.loadCoins();
  if (withExtra && s.loadBit()) s.loadRef();
  return grams;
}

/** `MessageRelaxed` with an `int_msg_info$0` header; null for an external one. */
function loadPayload(boc: Boc, cell: number): Payload | null {
  const tryInfo = (withExtra: boolean): { s: Slice; info: Omit<Payload, 'body' | 'opcode' | 'hash'> } | null => {
    const s = new Slice(boc, cell);
    if (s.preloadUint(1) !== 0) return null;
    s.loadBit();
    s.loadBit();
    const bounce = s.loadBit();
    const bounced = s.loadBit();
    loadAddr(s);
    const dest = loadAddr(s);
    const value = loadCurrencyCollection(s, withExtra);
    s.loadCoins();
    s.loadCoins();
    s.loadUintBig(64);
    s.loadUint(32);
    return { s, info: { dest, value, bounce, bounced } };
  };
  let r: ReturnType<typeof tryInfo>;
  try {
    r = tryInfo(true);
  } catch {
    r = tryInfo(false);
  }
  if (r === null) return null;
  const s = r.s;
  if (s.loadBit()) {
    if (s.loadBit()) s.loadRef();
    else skipStateInit(s);
  }
  const bodyNode = s.loadBit() ? s.loadRef() : sliceToCell(s);
  const bodySlice = typeof bodyNode === 'number' ? new Slice(boc, bodyNode) : null;
  let opcode: number | null = null;
  if (bodySlice && bodySlice.remainingBits >= 32) opcode = bodySlice.preloadUint(32);
  else if (typeof bodyNode !== 'number' && bodyNode.bits >= 32) opcode = ((bodyNode.data[0]! << 24) | (bodyNode.data[1]! << 16) | (bodyNode.data[2]! << 8) | bodyNode.data[3]!) >>> 0;
  return { ...r.info, body: cellToBocBase64(boc, bodyNode, false), opcode, hash: b64(cellHash(boc, cell)) };
}

/** `StateInit` inline: split_depth, special, code, data, library (block.tlb). */
function skipStateInit(s: Slice): void {
  if (s.loadBit()) s.loadUint(5);
  if (s.loadBit()) s.loadUint(2);
  s.loadMaybeRef();
  s.loadMaybeRef();
  s.loadMaybeRef();
}

function walletPayloads(bodyBase64: string): (Payload | null)[] | null {
  const boc = Boc.parse(Buffer.from(bodyBase64, 'base64'));
  const v3v4 = (opByte: boolean): (Payload | null)[] => {
    const s = new Slice(boc, boc.root);
    s.skip(512);
    s.loadUint(32);
    s.loadUint(32);
    s.loadUint(32);
    if (opByte) s.loadUint(8);
    const out: (Payload | null)[] = [];
    while (s.remainingRefs > 0) out.push(loadPayload(boc, s.loadRef()));
    return out;
  };
  const v5 = (): (Payload | null)[] => {
    const s = new Slice(boc, boc.root);
    s.loadUint(32);
    s.loadUint(32);
    s.loadUint(32);
    s.loadUint(32);
    const out: (Payload | null)[] = [];
    let cur = s.loadMaybeRef();
    while (cur >= 0) {
      const c = new Slice(boc, cur);
      if (c.remainingBits === 0) break;
      cur = c.loadRef();
      out.push(loadPayload(boc, c.loadRef()));
    }
    return out;
  };
  for (const f of [() => v3v4(false), () => v3v4(true), v5]) {
    try {
      return f();
    } catch {
      // Not this wallet layout.
    }
  }
  return null;
}

/** Adds the ghost nodes of `node`'s wallet external as its children; returns how many. */
export function addGhostNodes(node: EventNode): number {
  const payloads = walletPayloads(node.message.body ?? '') ?? [];
  const tx = node.tx;
  let added = 0;
  payloads.forEach((p, idx) => {
    if (p === null) return;
    added++;
    const msg: TraceMessage = {
      msg_hash: Buffer.from(p.hash + String(idx), 'utf8').toString('base64'),
      tx_hash: tx.hash,
      direction: 'in',
      source: tx.account,
      destination: p.dest,
      value: p.value.toString(),
      created_lt: tx.lt,
      created_at: tx.now,
      opcode: p.opcode,
      bounce: p.bounce,
      bounced: p.bounced,
      value_extra_currencies: null,
      body: p.body,
    };
    const ghost = new EventNode(msg, tx, false, true);
    ghost.failed = true;
    node.addChild(ghost);
  });
  return added;
}
