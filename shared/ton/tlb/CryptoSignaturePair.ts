import { Slice } from '../boc/slice.js';
import { tlbError } from '../errors.js';

/**
 * `sig_pair$_ node_id_short:bits256 sign:CryptoSignature` with `ed25519_signature#5 R:bits256 s:bits256`
 * (block.tlb). A `chained_signature#f` is accepted: its temp-key signature is returned.
 */
export interface CryptoSignaturePair {
  nodeIdShort: Uint8Array;
  r: Uint8Array;
  s: Uint8Array;
}

export function loadCryptoSignaturePair(s: Slice): CryptoSignaturePair {
  const nodeIdShort = s.loadBytes(32);
  const tag = s.loadUint(4);
  if (tag === 0xf) {
    s.loadRef();
    const t2 = s.loadUint(4);
    if (t2 !== 5) throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'CryptoSignatureSimple', `tag #${t2.toString(16)}`);
  } else if (tag !== 5) {
    throw tlbError('TLB_UNKNOWN_CONSTRUCTOR', 'CryptoSignature', `tag #${tag.toString(16)}`);
  }
  return { nodeIdShort, r: s.loadBytes(32), s: s.loadBytes(32) };
}

