import { BitWriter, type CellNode, cellHash } from '../boc/built.js';
import { Slice } from '../boc/slice.js';
import type { Boc } from '../boc/reader.js';
import { serializeBoc } from '../boc/writer.js';
import type { Message } from '../tlb/Message.js';
import { decodedOpcode } from './opcodes.js';
import { addressOrNull, b64, extraCurrencies, opcodeHex } from './format.js';

/** `{hash, body, decoded}`: a body or init state as TON Center returns it. */
export interface V3MessageContent {
  hash: string;
  body: string;
  decoded: Record<string, unknown> | null;
}

/** The v3 Message record (api-v3.md §1.5 "Message record", indexing-semantics §2.4). */
export interface V3Message {
  hash: string;
  source: string | null;
  destination: string | null;
  value: string | null;
  value_extra_currencies: Record<string, string> | null;
  fwd_fee: string | null;
  ihr_fee: string | null;
  created_lt: string | null;
  created_at: string | null;
  opcode: string | null;
  decoded_opcode: string | null;
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  import_fee: string | null;
  extra_flags: string | null;
  message_content: V3MessageContent;
  init_state: V3MessageContent | null;
  hash_norm?: string;
}

export function messageRecord(boc: Boc, m: Message): V3Message {
  const info = m.info;
  const body = m.bodySlice;
  const opcode = body.remainingBits >= 32 ? body.clone().loadInt(32) : null;
  const rec: V3Message = {
    hash: b64(boc.hash(m.cell)),
    source: addressOrNull(info.src),
    destination: addressOrNull(info.dest),
    value: null,
    value_extra_currencies: null,
    fwd_fee: null,
    ihr_fee: null,
    created_lt: null,
    created_at: null,
    opcode: opcode === null ? null : opcodeHex(opcode),
    decoded_opcode: opcode === null ? null : decodedOpcode(opcode),
    ihr_disabled: null,
    bounce: null,
    bounced: null,
    import_fee: null,
    extra_flags: null,
    message_content: content(boc, m.body, opcode === 0 ? textComment(body) : null),
    init_state: m.init ? content(boc, m.init.node, null) : null,
  };
  if (info.type === 'internal') {
    rec.value = info.value.grams.toString();
    rec.value_extra_currencies = extraCurrencies(info.value);
    rec.fwd_fee = info.fwdFee.toString();
    // Since global version 12 the former ihr_fee field carries extra_flags; TON Center reports ihr_fee as 0.
    rec.ihr_fee = '0';
    rec.extra_flags = info.extraFlags.toString();
    rec.created_lt = info.createdLt.toString();
    rec.created_at = String(info.createdAt);
    rec.ihr_disabled = info.ihrDisabled;
    rec.bounce = info.bounce;
    rec.bounced = info.bounced;
  } else if (info.type === 'external-out') {
    rec.created_lt = info.createdLt.toString();
    rec.created_at = String(info.createdAt);
  } else {
    // import_fee is NULL when it overflows int64 (indexing-semantics §2.4).
    rec.import_fee = info.importFee < 1n << 63n ? info.importFee.toString() : null;
    const norm = b64(normalizedHash(boc, m, info.destBitsFrom, info.destBitsTo));
    if (norm !== rec.hash) rec.hash_norm = norm;
  }
  return rec;
}

function content(boc: Boc, node: CellNode, decoded: Record<string, unknown> | null): V3MessageContent {
  return {
    hash: b64(cellHash(boc, node)),
    body: b64(serializeBoc(boc, node, { crc32: true })),
    decoded,
  };
}

/**
 * TEP-467 normalized hash of an external-in message (indexing-semantics §2.2): `ext_in_msg_info$10`,
 * `src = addr_none`, the original `dest` bits verbatim, `import_fee = 0`, no init, body as a reference.
 */
export function normalizedHash(boc: Boc, m: Message, destFrom: number, destTo: number): Uint8Array {
  const w = new BitWriter();
  w.writeUint(0b10, 2);
  w.writeUint(0b00, 2);
  w.writeSliceBits(new Slice(boc, m.cell), destFrom, destTo - destFrom);
  w.writeUint(0, 4);
  w.writeBit(0);
  w.writeBit(1);
  return w.toCell(boc, [m.body]).hash();
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A text comment (`text_comment` opcode 0, then a snake string) rendered as TON Center's decoder does:
 * `{"type":"text_comment","@type":"text_comment","comment":...}`; null when the tail is not whole UTF-8 bytes.
 */
function textComment(body: Slice): Record<string, unknown> | null {
  const parts: Uint8Array[] = [];
  let s = body.clone();
  s.skip(32);
  for (let depth = 0; depth < 1024; depth++) {
    if (s.remainingBits % 8 !== 0) return null;
    parts.push(s.loadBytes(s.remainingBits / 8));
    if (s.remainingRefs === 0) break;
    s = new Slice(s.boc, s.loadRef());
  }
  try {
    const comment = utf8.decode(Buffer.concat(parts));
    return { type: 'text_comment', '@type': 'text_comment', comment };
  } catch {
    return null;
  }
}
