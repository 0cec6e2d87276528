import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32c } from '../shared/ton/boc/crc32c.js';
import { parseBlock } from '../shared/ton/decode-block.js';

/**
 * Builds a large corpus of distinct real-format transactions from the real fixture blocks, for the ingest and API
 * benchmarks: copy k of a shard block gets its BlockInfo seqno moved by k·SEQNO_STEP and every transaction's `lt`
 * and `prev_trans_lt` moved by k·LT_STEP. Those fields are rewritten in place in the BOC bytes (the CRC32C is
 * recomputed), so each copy is a block BOC of exactly the real layout whose transactions have new hashes and new
 * (account, lt) keys, and whose messages, bodies and states are the real ones. What is not real: the copies'
 * dictionary keys and value flows are those of the original block.
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
      for (const tx of parsed.transactions) {
        const base = boc.dataOff[tx.cell]! * 8;
        // transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64 …
        addBits(out, base + 4 + 256, 64, BigInt(k) * LT_STEP);
        if (tx.prevTransLt !== 0n) addBits(out, base + 4 + 256 + 64 + 256, 64, BigInt(k) * LT_STEP);
      }
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

/** Recomputes the trailing CRC32C when the BOC has one (serialized_boc#b5ee9c72 flag bit 6). */
function fixCrc(buf: Buffer): void {
  if (buf.readUInt32BE(0) !== 0xb5ee9c72 || (buf[4]! & 0x40) === 0) return;
  buf.writeUInt32LE(crc32c(buf, 0, buf.length - 4), buf.length - 4);
}
