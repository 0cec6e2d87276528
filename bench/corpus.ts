import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32c } from '../shared/ton/boc/crc32c.js';
import { Boc } from '../shared/ton/boc/reader.js';
import { Slice } from '../shared/ton/boc/slice.js';
import { parseBlock } from '../shared/ton/decode-block.js';
import { loadCommonMsgInfo } from '../shared/ton/tlb/CommonMsgInfo.js';

/**
 * Builds a large corpus of distinct real-format transactions from the real fixture blocks, for the ingest and API
 * benchmarks: copy k of a shard block gets its BlockInfo seqno moved by k·SEQNO_STEP, every transaction's `lt`
 * and `prev_trans_lt` and every internal and external-out message's `created_lt` moved by k·LT_STEP, and every
 * external-in message's body bits 32-95 moved by k (it has no lt; on a real chain external messages rarely repeat,
 * and wallets look them up by hash). Those fields are rewritten in place in the BOC bytes, so each copy is a block BOC
 * of exactly the real layout whose transactions and messages have new hashes (a message shared by two blocks moves
 * the same way in both, so sender and receiver still agree), and whose account states and internal and
 * external-out bodies are the real ones. A message cell also sits in the
 * state update (the out-message queues), so the Merkle update's stored old and new hashes are recomputed; then the
 * CRC32C. What is not real: the copies' dictionary keys (message hashes in the descriptors and queues) and value
 * flows are those of the original block.
 */
export interface CorpusOptions {
  /** Folder of real block BOCs (the fixture blocks). */
  fromDir: string;
  outDir: string;
  /** Minimum number of transactions to produce. */
  transactions: number;
}

const SEQNO_STEP = 100_000_000;
const LT_STEP = 10_000_000_000_000n;

export function writeCorpus(opts: CorpusOptions): { files: number; transactions: number } {
  const sources = readdirSync(opts.fromDir)
    .filter((f) => f.endsWith('.boc'))
    .sort()
    .map((f) => readFileSync(path.join(opts.fromDir, f)))
    .map((bytes) => ({ bytes, parsed: parseBlock(bytes) }))
    // Shard blocks with transactions: masterchain copies would claim to commit shard blocks that do not exist.
    .filter((s) => s.parsed.block.info.shard.workchain !== -1 && s.parsed.transactions.length > 0);
  if (sources.length === 0) throw new Error(`no shard blocks with transactions in ${opts.fromDir}`);
  mkdirSync(opts.outDir, { recursive: true });
  let files = 0;
  let transactions = 0;
  for (let k = 1; transactions < opts.transactions; k++) {
    for (const { bytes, parsed } of sources) {
      const out = Buffer.from(bytes);
      const { boc, block } = parsed;
      const infoCell = boc.ref(block.cell, 0);
      // block_info#9bc7a987 version:uint32 flags(8 bits) flags:(## 8) seq_no:# …: seq_no starts at bit 80.
      addBits(out, boc.dataOff[infoCell]! * 8 + 80, 32, BigInt(k * SEQNO_STEP));
      const moved = new Set<number>();
      const movedBodies = new Set<number>();
      for (const tx of parsed.transactions) {
        const base = boc.dataOff[tx.cell]! * 8;
        // transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64 …
        addBits(out, base + 4 + 256, 64, BigInt(k) * LT_STEP);
        if (tx.prevTransLt !== 0n) addBits(out, base + 4 + 256 + 64 + 256, 64, BigInt(k) * LT_STEP);
        for (const m of tx.inMsg ? [tx.inMsg, ...tx.outMsgs] : tx.outMsgs) {
          // One cell per message in a bag, however many transactions and descriptors refer to it: move it once.
          if (moved.has(m.cell)) continue;
          moved.add(m.cell);
          if (m.info.type === 'external-in') {
            // `ext_in_msg_info$10 src dest import_fee` has no lt: the copy's own message comes from its body instead,
            // the 64 bits after the first 32 (a wallet's signature; the opcode, the first 32, stays). A body shorter
            // than that stays shared by the copies, as a body cell that two messages share is moved once.
            const b = m.bodySlice;
            if (b.end - b.pos < 32 + 64 || movedBodies.has(b.cell)) continue;
            movedBodies.add(b.cell);
            addBits(out, boc.dataOff[b.cell]! * 8 + b.pos + 32, 64, BigInt(k));
            continue;
          }
          addBits(out, boc.dataOff[m.cell]! * 8 + createdLtBit(boc, m.cell), 64, BigInt(k) * LT_STEP);
        }
      }
      // The CRC first, so that the rewritten bag parses; again once the Merkle update's hashes are in.
      fixCrc(out);
      fixMerkleUpdate(out);
      fixCrc(out);
      const info = block.info;
      writeFileSync(path.join(opts.outDir, `copy${k}_${info.shard.workchain}_${info.seqno + k * SEQNO_STEP}.boc`), out);
      files++;
      transactions += parsed.transactions.length;
      if (transactions >= opts.transactions) break;
    }
  }
  return { files, transactions };
}

/** Adds `delta` to the unsigned `width`-bit big-endian field starting at absolute bit `pos` of `buf`. */
function addBits(buf: Buffer, pos: number, width: number, delta: bigint): void {
  let v = 0n;
  for (let i = 0; i < width; i++) v = (v << 1n) | BigInt((buf[(pos + i) >> 3]! >> (7 - ((pos + i) & 7))) & 1);
  v = (v + delta) & ((1n << BigInt(width)) - 1n);
  for (let i = width - 1; i >= 0; i--) {
    const bit = Number(v & 1n);
    v >>= 1n;
    const at = pos + i;
    const mask = 0x80 >> (at & 7);
    buf[at >> 3] = bit ? buf[at >> 3]! | mask : buf[at >> 3]! & ~mask;
  }
}

/**
 * Bit offset of `created_lt` in an internal or external-out message cell: CommonMsgInfo ends with
 * `created_lt:uint64 created_at:uint32` in both (block.tlb `int_msg_info$0`, `ext_out_msg_info$11`).
 */
function createdLtBit(boc: Boc, cell: number): number {
  const s = new Slice(boc, cell);
  loadCommonMsgInfo(s);
  return s.pos - 64 - 32;
}

/**
 * `!merkle_update#04 {X:Type} old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16 old:^X new:^X`
 * (block.tlb): stores the level-0 hash and depth of each side, which the rewritten message cells changed. Sets them
 * to what the rewritten bag holds.
 */
function fixMerkleUpdate(buf: Buffer): void {
  const boc = Boc.parse(buf);
  // block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow state_update:^(MERKLE_UPDATE ShardState) …
  const update = boc.ref(boc.root, 2);
  if (boc.exoticType(update) !== 4) throw new Error('corpus: the block\'s state_update is not a Merkle update');
  const off = boc.dataOff[update]!;
  for (let side = 0; side < 2; side++) {
    const child = boc.ref(update, side);
    buf.set(boc.hashAt(child, 0), off + 1 + side * 32);
    buf.writeUInt16BE(boc.depthAt(child, 0), off + 1 + 64 + side * 2);
  }
}

/** Recomputes the trailing CRC32C when the BOC has one (serialized_boc#b5ee9c72 flag bit 6). */
function fixCrc(buf: Buffer): void {
  if (buf.readUInt32BE(0) !== 0xb5ee9c72 || (buf[4]! & 0x40) === 0) return;
  buf.writeUInt32LE(crc32c(buf, 0, buf.length - 4), buf.length - 4);
}
