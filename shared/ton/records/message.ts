import { BitWriter, type CellNode, cellHash } from '../boc/built.js';
import { Slice } from '../boc/slice.js';
import type { Boc } from '../boc/reader.js';
import { serializeBoc } from '../boc/writer.js';
import type { Message } from '../tlb/Message.js';
import { decodedOpcode } from './opcodes.js';
import { addressOrNull, b64, extraCurrencies, opcodeHex } from './format.js';
import type { WireMessage, WireMessageContent } from './wire.js';

/** `{hash, body, decoded}`: a body or init state as TON Center returns it. */
export type V3MessageContent = WireMessageContent;

/**
 * The v3 Message record (api-v3.md §1.5 "Message record", indexing-semantics §2.4; wire.ts `Message`) as the decoder
 * makes it: with its content, without the transaction hashes only `/messages` adds.
 */
export type V3Message = Omit<WireMessage, 'message_content' | 'in_msg_tx_hash' | 'out_msg_tx_hash'> & { message_content: V3MessageContent };

/**
 * What one block's records share, by cell index. A message sent and received within a block is the same cell in
 * the sender's out_msgs and the receiver's in_msg, and identical bodies are one cell in a bag (serializers
 * deduplicate by hash): in the fixture blocks 517 of 2,712 message records and 1,277 of 1,370 referenced bodies
 * repeat one already rendered. The first rendering is kept as it was handed out and each hit gets a copy of it, so
 * no two records share a mutable object: the memo lives for one block's records (cell indices mean nothing in
 * another bag), all of them made before the caller sees any, so nothing can change a kept one first.
 */
export class MessageMemo {
  readonly messages = new Map<number, V3Message>();
  readonly bodies = new Map<number, V3MessageContent>();
  readonly inits = new Map<number, V3MessageContent>();
}

export function messageRecord(boc: Boc, m: Message, memo?: MessageMemo): V3Message {
  if (memo === undefined) return renderMessage(boc, m, undefined);
  const seen = memo.messages.get(m.cell);
  if (seen !== undefined) return copyMessage(seen);
  const rec = renderMessage(boc, m, memo);
  memo.messages.set(m.cell, rec);
  return rec;
}

function copyMessage(m: V3Message): V3Message {
  return {
    ...m,
    value_extra_currencies: m.value_extra_currencies === null ? null : { ...m.value_extra_currencies },
    message_content: copyContent(m.message_content),
    init_state: m.init_state === null ? null : copyContent(m.init_state),
  };
}

function copyContent(c: V3MessageContent): V3MessageContent {
  return { hash: c.hash, body: c.body, decoded: c.decoded === null ? null : { ...c.decoded } };
}

function renderMessage(boc: Boc, m: Message, memo: MessageMemo | undefined): V3Message {
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
    message_content: memoContent(memo?.bodies, boc, m.body, () => (opcode === 0 ? textComment(body) : null)),
    init_state: m.init ? memoContent(memo?.inits, boc, m.init.node, () => null) : null,
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

/** A body or init state, rendered once per cell of the bag (an inline body is a built cell of its own message). */
function memoContent(
  memo: Map<number, V3MessageContent> | undefined,
  boc: Boc,
  node: CellNode,
  decode: () => Record<string, unknown> | null,
): V3MessageContent {
  if (memo === undefined || typeof node !== 'number') return content(boc, node, decode());
  const seen = memo.get(node);
  if (seen !== undefined) return copyContent(seen);
  const c = content(boc, node, decode());
  memo.set(node, c);
  return c;
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
