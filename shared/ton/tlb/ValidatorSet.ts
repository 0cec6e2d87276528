import type { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';
import { keyToNumber, walkHashmap, walkHashmapE } from './Hashmap.js';

/**
 * `validators#11 utime_since:uint32 utime_until:uint32 total:(## 16) main:(## 16) { main <= total } { main >= 1 }
 * list:(Hashmap 16 ValidatorDescr) = ValidatorSet;` and `validators_ext#12 … total_weight:uint64
 * list:(HashmapE 16 ValidatorDescr)` (block.tlb; ConfigParams 32–37). `list` is in key order 0..total-1, the order
 * the masterchain subset is taken from (mc-config.cpp `unpack_validator_set`).
 */
export interface ValidatorSet {
  utimeSince: number;
  utimeUntil: number;
  total: number;
  main: number;
  list: ValidatorDescr[];
}

/**
 * `validator#53 public_key:SigPubKey weight:uint64` / `validator_addr#73 public_key:SigPubKey weight:uint64
 * adnl_addr:bits256`, `ed25519_pubkey#8e81278a pubkey:bits256 = SigPubKey`. `adnlAddr` is all zeros when absent
 * (as the C++ `ValidatorDescr` keeps it).
 */
export interface ValidatorDescr {
  publicKey: Uint8Array;
  weight: bigint;
  adnlAddr: Uint8Array;
}

export function loadValidatorSet(s: Slice): ValidatorSet {
  const tag = s.loadUint(8);
  if (tag !== 0x11 && tag !== 0x12) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'ValidatorSet', `tag #${tag.toString(16)}`);
  const utimeSince = s.loadUint(32);
  const utimeUntil = s.loadUint(32);
  const total = s.loadUint(16);
  const main = s.loadUint(16);
  if (main > total || main < 1) throw tlbError('TLB_INVALID', 'ValidatorSet', `main ${main} with total ${total}`);
  const byIndex = new Map<number, ValidatorDescr>();
  const leaf = (v: Slice, key: Uint8Array) => byIndex.set(keyToNumber(key), loadValidatorDescr(v));
  if (tag === 0x12) {
    s.loadUintBig(64); // total_weight: the sum of the list's weights, recomputed by whoever needs it
    walkHashmapE(s, 16, leaf);
  } else {
    walkHashmap(s, 16, leaf);
  }
  const list: ValidatorDescr[] = [];
  for (let i = 0; i < total; i++) {
    const v = byIndex.get(i);
    if (!v) throw tlbError('TLB_INVALID', 'ValidatorSet', `validator ${i} of ${total} is missing`);
    list.push(v);
  }
  return { utimeSince, utimeUntil, total, main, list };
}

function loadValidatorDescr(s: Slice): ValidatorDescr {
  const tag = s.loadUint(8);
  if (tag !== 0x53 && tag !== 0x73) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'ValidatorDescr', `tag #${tag.toString(16)}`);
  const keyTag = s.loadUint(32);
  if (keyTag !== 0x8e81278a) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'SigPubKey', `tag #${keyTag.toString(16)}`);
  const publicKey = s.loadBytes(32);
  const weight = s.loadUintBig(64);
  const adnlAddr = tag === 0x73 ? s.loadBytes(32) : new Uint8Array(32);
  return { publicKey, weight, adnlAddr };
}
