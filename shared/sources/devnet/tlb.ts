import type { CurrencyCollection } from '../../ton/tlb/CurrencyCollection.js';
import { type DCell, DBuilder, type DSlice } from './cell.js';

/**
 * Lean readers of the few TL-B structures the chain inspects in the emulator's output (transactions, messages,
 * accounts), over {@link DCell}s. The block decoder in shared/ton reads the sealed blocks; these only need the
 * fields that route messages and keep the books.
 */

/** Walks a `Hashmap n X` from its root edge cell in key order; `key` holds the key bytes while `leaf` runs. */
export function walkDict(root: DCell, n: number, leaf: (value: DSlice, key: Uint8Array) => void, skipExtra?: (s: DSlice) => void): void {
  const key = new Uint8Array((n + 7) >> 3);
  const set = (i: number, v: boolean): void => {
    if (v) key[i >> 3]! |= 0x80 >> (i & 7);
    else key[i >> 3]! &= ~(0x80 >> (i & 7));
  };
  const walk = (cell: DCell, pos: number, m: number): void => {
    const s = cell.beginParse();
    let l: number;
    if (!s.loadBit()) {
      l = 0;
      while (s.loadBit()) l++;
      for (let i = 0; i < l; i++) set(pos + i, s.loadBit());
    } else if (!s.loadBit()) {
      l = s.loadUint(32 - Math.clz32(m));
      for (let i = 0; i < l; i++) set(pos + i, s.loadBit());
    } else {
      const v = s.loadBit();
      l = s.loadUint(32 - Math.clz32(m));
      for (let i = 0; i < l; i++) set(pos + i, v);
    }
    if (l === m) {
      skipExtra?.(s);
      leaf(s, key);
      return;
    }
    const left = s.loadRef();
    const right = s.loadRef();
    set(pos + l, false);
    walk(left, pos + l + 1, m - l - 1);
    set(pos + l, true);
    walk(right, pos + l + 1, m - l - 1);
  };
  walk(root, 0, n);
}

export function loadCurrency(s: DSlice): CurrencyCollection {
  const grams = s.loadCoins();
  const dict = s.loadMaybeRef();
  const other: Array<[number, bigint]> = [];
  if (dict) walkDict(dict, 32, (v, k) => other.push([Buffer.from(k).readUInt32BE(0), v.loadVarUint(5)]));
  return { grams, other };
}

export interface StdAddr {
  workchain: number;
  hash: Uint8Array;
}

/** The routing-relevant part of a message (block.tlb CommonMsgInfo). */
export type MsgInfo =
  | { kind: 'int'; src: StdAddr | null; dest: StdAddr; value: CurrencyCollection; fwdFee: bigint; createdLt: bigint; bounce: boolean; bounced: boolean }
  | { kind: 'ext-in'; dest: StdAddr }
  | { kind: 'ext-out'; src: StdAddr | null; createdLt: bigint };

export function readMsgInfo(msg: DCell): MsgInfo {
  const s = msg.beginParse();
  if (!s.loadBit()) {
    s.skip(1); // ihr_disabled
    const bounce = s.loadBit();
    const bounced = s.loadBit();
    const src = s.loadAddress();
    const dest = s.loadAddress();
    if (dest.type !== 'std') throw new Error(`internal message to a ${dest.type} address`);
    const value = loadCurrency(s);
    s.loadCoins(); // extra_flags (ex ihr_fee)
    const fwdFee = s.loadCoins();
    const createdLt = s.loadUintBig(64);
    return { kind: 'int', src: src.type === 'std' ? src : null, dest, value, fwdFee, createdLt, bounce, bounced };
  }
  if (!s.loadBit()) {
    s.loadAddress();
    const dest = s.loadAddress();
    if (dest.type !== 'std') throw new Error(`external message to a ${dest.type} address`);
    return { kind: 'ext-in', dest };
  }
  const src = s.loadAddress();
  s.loadAddress();
  return { kind: 'ext-out', src: src.type === 'std' ? src : null, createdLt: s.loadUintBig(64) };
}

/** What the chain needs of a transaction the emulator produced (block.tlb `transaction$0111`). */
export interface TxView {
  cell: DCell;
  account: Uint8Array;
  lt: bigint;
  now: number;
  outmsgCnt: number;
  origStatus: number;
  endStatus: number;
  inMsg: DCell | null;
  outMsgs: DCell[];
  totalFees: CurrencyCollection;
  /** HASH_UPDATE of the account: hashes of the Account cell before and after. */
  oldHash: Uint8Array;
  newHash: Uint8Array;
  /** The transaction's TransactionDescr: ordinary (0b0000) with its aborted flag; other kinds leave it false. */
  aborted: boolean;
}

export function readTx(cell: DCell): TxView {
  const s = cell.beginParse();
  if (s.loadUint(4) !== 0b0111) throw new Error('not a transaction');
  const account = s.loadBytes(32);
  const lt = s.loadUintBig(64);
  s.skip(256 + 64);
  const now = s.loadUint(32);
  const outmsgCnt = s.loadUint(15);
  const origStatus = s.loadUint(2);
  const endStatus = s.loadUint(2);
  const msgs = s.loadRef().beginParse();
  const inMsg = msgs.loadMaybeRef();
  const outMsgs: DCell[] = [];
  const outRoot = msgs.loadMaybeRef();
  if (outRoot) walkDict(outRoot, 15, (v) => outMsgs.push(v.loadRef()));
  const totalFees = loadCurrency(s);
  const upd = s.loadRef().beginParse();
  upd.skip(8);
  const oldHash = upd.loadBytes(32);
  const newHash = upd.loadBytes(32);
  const descr = s.loadRef().beginParse();
  let aborted = false;
  if (descr.loadUint(4) === 0) {
    descr.skip(1); // credit_first
    if (descr.loadBit()) skipStoragePhase(descr);
    if (descr.loadBit()) loadCurrencyAndDue(descr);
    if (descr.loadBit()) {
      descr.skip(3); // success, msg_state_used, account_activated
      descr.loadCoins();
      descr.loadRef();
    } else if (descr.loadUint(2) === 0b11) {
      descr.skip(1); // cskip_suspended$110
    }
    descr.loadMaybeRef();
    aborted = descr.loadBit();
  }
  return { cell, account, lt, now, outmsgCnt, origStatus, endStatus, inMsg, outMsgs, totalFees, oldHash, newHash, aborted };
}

function skipStoragePhase(s: DSlice): void {
  s.loadCoins();
  if (s.loadBit()) s.loadCoins();
  if (s.loadBit()) s.skip(1);
}

function loadCurrencyAndDue(s: DSlice): void {
  if (s.loadBit()) s.loadCoins();
  loadCurrency(s);
}

/** An account as the chain books it (block.tlb `account$1 ... storage:AccountStorage`). */
export interface AccountView {
  status: 'active' | 'uninit' | 'frozen' | 'nonexist';
  balance: bigint;
  lastTransLt: bigint;
  /** `fixed_prefix_length` of an active account's StateInit (DepthBalanceInfo's split_depth), else 0. */
  splitDepth: number;
  code: DCell | null;
  data: DCell | null;
}

export function readAccount(acc: DCell): AccountView {
  const s = acc.beginParse();
  if (!s.loadBit()) return { status: 'nonexist', balance: 0n, lastTransLt: 0n, splitDepth: 0, code: null, data: null };
  s.loadAddress();
  s.loadVarUint(3);
  s.loadVarUint(3);
  const extra = s.loadUint(3);
  if (extra === 1) s.skip(256);
  else if (extra > 1) s.skip(extra * 8);
  s.skip(32);
  if (s.loadBit()) s.loadCoins();
  const lastTransLt = s.loadUintBig(64);
  const balance = s.loadCoins();
  s.loadMaybeRef();
  if (s.loadBit()) {
    const splitDepth = s.loadBit() ? s.loadUint(5) : 0;
    if (s.loadBit()) s.skip(2);
    const code = s.loadMaybeRef();
    const data = s.loadMaybeRef();
    return { status: 'active', balance, lastTransLt, splitDepth, code, data };
  }
  return { status: s.loadBit() ? 'frozen' : 'uninit', balance, lastTransLt, splitDepth: 0, code: null, data: null };
}

/** The ShardAccount of an account that does not exist (`account_none$0`, no last transaction). */
export const EMPTY_SHARD_ACCOUNT: DCell = (() => {
  const none = new DBuilder();
  none.storeBit(0);
  const b = new DBuilder();
  b.storeRef(none.endCell());
  b.storeBytes(new Uint8Array(32));
  b.storeUint(0, 64);
  return b.endCell();
})();

/**
 * A genesis ShardAccount: an active account with `code` and `data`, `balance`, storage last paid at `now`, and
 * the storage statistics the node keeps (the AccountStorage root and its distinct cells, as the emulator counts).
 */
export function genesisShardAccount(addr: StdAddr, code: DCell, data: DCell, balance: bigint, now: number): DCell {
  const storage = new DBuilder();
  storage.storeUint(0, 64);
  storage.storeCoins(balance);
  storage.storeBit(0);
  storage.storeBit(1); // account_active$1
  storage.storeUint(0b00110, 5); // no fixed_prefix_length, no special, code, data, no library
  storage.storeRef(code);
  storage.storeRef(data);
  const storageCell = storage.endCell();
  const seen = new Set<string>();
  let cells = 0;
  let bits = 0;
  const count = (c: DCell): void => {
    const k = c.hashHex();
    if (seen.has(k)) return;
    seen.add(k);
    cells++;
    bits += c.bits;
    c.refs.forEach(count);
  };
  count(storageCell);
  const a = new DBuilder();
  a.storeBit(1);
  a.storeAddress(addr);
  a.storeVarUint(BigInt(cells), 3);
  a.storeVarUint(BigInt(bits), 3);
  a.storeUint(0, 3); // storage_extra_none$000
  a.storeUint(now, 32);
  a.storeBit(0);
  a.storeCellContent(storageCell);
  const sa = new DBuilder();
  sa.storeRef(a.endCell());
  sa.storeBytes(new Uint8Array(32));
  sa.storeUint(0, 64);
  return sa.endCell();
}
