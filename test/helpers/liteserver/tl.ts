/**
 * The slice of TL (https://core.telegram.org/mtproto/TL, TON's lite_api.tl / ton_api.tl) the loopback liteserver
 * needs, written from the schema rather than taken from ton-lite-client, so that the client under test and this
 * server do not share a codec (a bug in one would otherwise be invisible).
 *
 * Constructor ids are computed the way TL defines them: the CRC32 (IEEE) of the declaration as written below.
 * All integers are little-endian; `bytes` is a length-prefixed string padded to a multiple of four bytes.
 */

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** The TL constructor id of a declaration: CRC32 of its text (signed, as TL writes it with writeInt32). */
export function tlId(declaration: string): number {
  let c = -1;
  for (const b of Buffer.from(declaration, 'utf8')) c = CRC_TABLE[(c ^ b) & 255]! ^ (c >>> 8);
  return (c ^ -1) | 0;
}

/** Declarations from lite_api.tl (liteServer.*, tonNode.*), ton_api.tl (tcp.*) and the ADNL message layer. */
const DECLARATIONS = {
  // Transport (ton_api.tl)
  tcpPing: 'tcp.ping random_id:long = tcp.Pong',
  tcpPong: 'tcp.pong random_id:long = tcp.Pong',
  adnlQuery: 'adnl.message.query query_id:int256 query:bytes = adnl.Message',
  adnlAnswer: 'adnl.message.answer query_id:int256 answer:bytes = adnl.Message',
  // Lite API envelope
  liteQuery: 'liteServer.query data:bytes = Object',
  waitMasterchainSeqno: 'liteServer.waitMasterchainSeqno seqno:int timeout_ms:int = Object',
  error: 'liteServer.error code:int message:string = liteServer.Error',
  // Functions
  getMasterchainInfo: 'liteServer.getMasterchainInfo = liteServer.MasterchainInfo',
  getMasterchainInfoExt: 'liteServer.getMasterchainInfoExt mode:# = liteServer.MasterchainInfoExt',
  getTime: 'liteServer.getTime = liteServer.CurrentTime',
  getVersion: 'liteServer.getVersion = liteServer.Version',
  getBlock: 'liteServer.getBlock id:tonNode.blockIdExt = liteServer.BlockData',
  getBlockHeader: 'liteServer.getBlockHeader id:tonNode.blockIdExt mode:# = liteServer.BlockHeader',
  getAllShardsInfo: 'liteServer.getAllShardsInfo id:tonNode.blockIdExt = liteServer.AllShardsInfo',
  getShardBlockProof: 'liteServer.getShardBlockProof id:tonNode.blockIdExt = liteServer.ShardBlockProof',
  getBlockProof: 'liteServer.getBlockProof mode:# known_block:tonNode.blockIdExt target_block:mode.0?tonNode.blockIdExt = liteServer.PartialBlockProof',
  lookupBlock: 'liteServer.lookupBlock mode:# id:tonNode.blockId lt:mode.1?long utime:mode.2?int = liteServer.BlockHeader',
  getAccountState: 'liteServer.getAccountState id:tonNode.blockIdExt account:liteServer.accountId = liteServer.AccountState',
  // Results
  masterchainInfo:
    'liteServer.masterchainInfo last:tonNode.blockIdExt state_root_hash:int256 init:tonNode.zeroStateIdExt = liteServer.MasterchainInfo',
  masterchainInfoExt:
    'liteServer.masterchainInfoExt mode:# version:int capabilities:long last:tonNode.blockIdExt last_utime:int now:int state_root_hash:int256 init:tonNode.zeroStateIdExt = liteServer.MasterchainInfoExt',
  currentTime: 'liteServer.currentTime now:int = liteServer.CurrentTime',
  version: 'liteServer.version mode:# version:int capabilities:long now:int = liteServer.Version',
  blockData: 'liteServer.blockData id:tonNode.blockIdExt data:bytes = liteServer.BlockData',
  blockHeader: 'liteServer.blockHeader id:tonNode.blockIdExt mode:# header_proof:bytes = liteServer.BlockHeader',
  allShardsInfo: 'liteServer.allShardsInfo id:tonNode.blockIdExt proof:bytes data:bytes = liteServer.AllShardsInfo',
  // `links:(vector liteServer.shardBlockLink)`: TL drops the parentheses before hashing; the links are bare.
  shardBlockProof: 'liteServer.shardBlockProof masterchain_id:tonNode.blockIdExt links:vector liteServer.shardBlockLink = liteServer.ShardBlockProof',
  boolTrue: 'boolTrue = Bool',
  boolFalse: 'boolFalse = Bool',
  // `(vector X)` loses its parentheses before hashing. The signature set's pre-simplex text hashes to the id that
  // lite_api.tl now pins on `liteServer.signatureSet.ordinary#f644a6e6`.
  partialBlockProof: 'liteServer.partialBlockProof complete:Bool from:tonNode.blockIdExt to:tonNode.blockIdExt steps:vector liteServer.BlockLink = liteServer.PartialBlockProof',
  blockLinkForward:
    'liteServer.blockLinkForward to_key_block:Bool from:tonNode.blockIdExt to:tonNode.blockIdExt dest_proof:bytes config_proof:bytes signatures:liteServer.SignatureSet = liteServer.BlockLink',
  blockLinkBack:
    'liteServer.blockLinkBack to_key_block:Bool from:tonNode.blockIdExt to:tonNode.blockIdExt dest_proof:bytes proof:bytes state_proof:bytes = liteServer.BlockLink',
  signatureSet: 'liteServer.signatureSet validator_set_hash:int catchain_seqno:int signatures:vector liteServer.signature = liteServer.SignatureSet',
  accountState: 'liteServer.accountState id:tonNode.blockIdExt shardblk:tonNode.blockIdExt shard_proof:bytes proof:bytes state:bytes = liteServer.AccountState',
} as const;

export type TlName = keyof typeof DECLARATIONS;

/** Constructor id of every declaration above, by short name. */
export const TL: Record<TlName, number> = Object.fromEntries(Object.entries(DECLARATIONS).map(([k, d]) => [k, tlId(d)])) as Record<TlName, number>;

/** Short name of a function constructor id, for request logs. */
export function tlName(id: number): string {
  for (const [k, v] of Object.entries(TL)) if (v === id) return k;
  return `#${(id >>> 0).toString(16).padStart(8, '0')}`;
}

export class TlWriter {
  private readonly parts: Buffer[] = [];

  int32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32LE(v | 0);
    this.parts.push(b);
    return this;
  }

  uint32(v: number): this {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v >>> 0);
    this.parts.push(b);
    return this;
  }

  int64(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64LE(BigInt.asIntN(64, v));
    this.parts.push(b);
    return this;
  }

  int256(v: Uint8Array): this {
    if (v.length !== 32) throw new Error(`int256 needs 32 bytes, got ${v.length}`);
    this.parts.push(Buffer.from(v));
    return this;
  }

  /** TL `bytes`: 1-byte length (or 0xFE + 3-byte length from 254 bytes on), data, zero padding to 4. */
  bytes(v: Uint8Array): this {
    const len = v.length;
    if (len >= 1 << 24) throw new Error('TL bytes longer than 16 MiB');
    const head = len < 254 ? Buffer.from([len]) : Buffer.from([254, len & 255, (len >> 8) & 255, (len >> 16) & 255]);
    const pad = (4 - ((head.length + len) % 4)) % 4;
    this.parts.push(head, Buffer.from(v), Buffer.alloc(pad));
    return this;
  }

  string(s: string): this {
    return this.bytes(Buffer.from(s, 'utf8'));
  }

  raw(b: Uint8Array): this {
    this.parts.push(Buffer.from(b));
    return this;
  }

  build(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export class TlReader {
  private p = 0;
  constructor(private readonly buf: Buffer) {}

  get remaining(): number {
    return this.buf.length - this.p;
  }

  private need(n: number): void {
    if (this.p + n > this.buf.length) throw new Error(`TL: need ${n} bytes at ${this.p}, have ${this.remaining}`);
  }

  int32(): number {
    this.need(4);
    const v = this.buf.readInt32LE(this.p);
    this.p += 4;
    return v;
  }

  uint32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.p);
    this.p += 4;
    return v;
  }

  int64(): bigint {
    this.need(8);
    const v = this.buf.readBigInt64LE(this.p);
    this.p += 8;
    return v;
  }

  int256(): Buffer {
    this.need(32);
    const v = this.buf.subarray(this.p, this.p + 32);
    this.p += 32;
    return Buffer.from(v);
  }

  bytes(): Buffer {
    this.need(1);
    let len = this.buf[this.p]!;
    let head = 1;
    if (len === 254) {
      this.need(4);
      len = this.buf.readUIntLE(this.p + 1, 3);
      head = 4;
    } else if (len === 255) {
      throw new Error('TL: bytes length prefix 255 is invalid');
    }
    const pad = (4 - ((head + len) % 4)) % 4;
    this.need(head + len + pad);
    const v = this.buf.subarray(this.p + head, this.p + head + len);
    this.p += head + len + pad;
    return Buffer.from(v);
  }

  rest(): Buffer {
    const v = this.buf.subarray(this.p);
    this.p = this.buf.length;
    return v;
  }
}

/** `tonNode.blockIdExt` fields (bare: no constructor id inside other objects). */
export interface TlBlockIdExt {
  workchain: number;
  /** Unsigned 64-bit shard id. */
  shard: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export function writeBlockIdExt(w: TlWriter, id: TlBlockIdExt): TlWriter {
  return w.int32(id.workchain).int64(id.shard).int32(id.seqno).int256(id.rootHash).int256(id.fileHash);
}

export function readBlockIdExt(r: TlReader): TlBlockIdExt {
  const workchain = r.int32();
  const shard = BigInt.asUintN(64, r.int64());
  const seqno = r.int32();
  return { workchain, shard, seqno, rootHash: r.int256(), fileHash: r.int256() };
}

/** `tonNode.blockId` as it appears boxed in lookupBlock is bare too (lower-case type name). */
export function readBlockId(r: TlReader): { workchain: number; shard: bigint; seqno: number } {
  const workchain = r.int32();
  const shard = BigInt.asUintN(64, r.int64());
  return { workchain, shard, seqno: r.int32() };
}
