/** The liteserver source's checkpoint: the last published masterchain block and the shard tips it committed. */
import { NonRetryableError } from '../../runtime/errors.js';
import { shardHex } from '../../ton/records/format.js';
import { type FullBlockId, isRecord, MC_SHARD } from './types.js';
import { hex } from './verify.js';

interface JsonBlockId {
  workchain: number;
  shard: string;
  seqno: number;
  rootHash: string;
  fileHash: string;
}

/**
 * `{"v":1,"mc":{...},"shards":[...]}`: the last published masterchain block and the shard tips it committed. The tips
 * are what the next group's walk stops at, so a restart yields exactly the blocks after this group: nothing twice,
 * nothing skipped. A bare decimal seqno is accepted too (then the tips are read from that block).
 */
export interface Checkpoint {
  mc: FullBlockId;
  shards: FullBlockId[];
}

export function encodeCheckpoint(c: Checkpoint): string {
  const j = (id: FullBlockId): JsonBlockId => ({ workchain: id.workchain, shard: shardHex(id.shard), seqno: id.seqno, rootHash: hex(id.rootHash), fileHash: hex(id.fileHash) });
  return JSON.stringify({ v: 1, mc: j(c.mc), shards: c.shards.map(j) });
}

export function decodeCheckpoint(text: string): Checkpoint | number {
  const bad = (why: string): NonRetryableError => new NonRetryableError('BAD_CHECKPOINT', `liteserver checkpoint ${JSON.stringify(text.slice(0, 200))}: ${why}`);
  if (/^\d+$/.test(text)) {
    const seqno = Number(text);
    if (!Number.isSafeInteger(seqno) || seqno < 1 || seqno > 0xffffffff) throw bad('seqno out of range');
    return seqno;
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw bad('neither a masterchain seqno nor JSON');
  }
  const id = (x: unknown, at: string): FullBlockId => {
    if (!isRecord(x)) throw bad(`${at}: expected an object`);
    const { workchain, shard, seqno, rootHash, fileHash } = x;
    if (typeof workchain !== 'number' || !Number.isInteger(workchain)) throw bad(`${at}.workchain`);
    if (typeof shard !== 'string' || !/^[0-9A-Fa-f]{1,16}$/.test(shard) || BigInt(`0x${shard}`) === 0n) throw bad(`${at}.shard`);
    if (typeof seqno !== 'number' || !Number.isInteger(seqno) || seqno < 0 || seqno > 0xffffffff) throw bad(`${at}.seqno`);
    const h = (s: unknown, name: string): Uint8Array => {
      if (typeof s !== 'string' || !/^[0-9a-fA-F]{64}$/.test(s)) throw bad(`${at}.${name}: expected 64 hex digits`);
      return new Uint8Array(Buffer.from(s, 'hex'));
    };
    return { workchain, shard: BigInt(`0x${shard}`), seqno, rootHash: h(rootHash, 'rootHash'), fileHash: h(fileHash, 'fileHash') };
  };
  if (!isRecord(v) || v.v !== 1) throw bad('unknown version');
  if (!Array.isArray(v.shards)) throw bad('shards: expected an array');
  const mc = id(v.mc, 'mc');
  if (mc.workchain !== -1 || mc.shard !== MC_SHARD) throw bad('mc: not a masterchain block id');
  return { mc, shards: v.shards.map((s: unknown, i) => id(s, `shards[${i}]`)) };
}
