/**
 * A loopback liteserver for tests: a TCP server that speaks the real protocol (ADNL over TCP, see adnl.ts, and
 * lite_api.tl, see tl.ts) and serves a set of blocks (blocks.ts). It answers what a block follower asks:
 * getMasterchainInfo(Ext), getTime, getVersion, lookupBlock (by seqno, lt or utime), getBlock, getBlockHeader,
 * getAllShardsInfo, getShardBlockProof, getBlockProof (forward links from a key block, signatures.ts; backward links to
 * an older masterchain block, mc-state.ts), the waitMasterchainSeqno prefix, and tcp.ping. Unknown blocks get `liteServer.error` 651,
 * as a real liteserver answers for a block it has not applied. getAccountState replays recorded answers
 * ({@link LoopbackLiteserver.accountStates}: proof and state bytes per block root hash), echoing the asked block id.
 *
 * Faults a test can switch on: hidden blocks (known, answered "not found" until `publish`), a head below the
 * newest masterchain block, tampered bytes, a stalled server (reads queries, never answers), and `kill()` (drops
 * every connection and stops listening, like a crashed process).
 */
import net from 'node:net';
import { type ServerKey, acceptHandshake, createServerKey, framePacket, HANDSHAKE_BYTES, type Session, takePackets } from './adnl.js';
import { MC_SHARD, type ServedBlock, blockKey, headerProof, mcShardsProof, prevIds, shardHashesCell, shardTops, stateRootHash } from './blocks.js';
import { type BackLinkSpec, backLink } from './mc-state.js';
import { type SignatureSetSpec, keyConfigProof } from './signatures.js';
import { TL, TlReader, TlWriter, readBlockId, readBlockIdExt, tlName, writeBlockIdExt } from './tl.js';
import { patience } from '../patience.js';

/** Mainnet's masterchain zero state (validator.zero_state of ton.org's global config). */
export const MAINNET_ZERO_STATE = {
  rootHash: Buffer.from('F6OpKZKqvqeFp6CQmFomXNMfMj2EnaUSOXN+Mh+wVWk=', 'base64'),
  fileHash: Buffer.from('XplPz01CXAps5qeSWUtxcyBfdAo5zVb1N979KLSKD24=', 'base64'),
};

/** A global config (`config.global`) listing `servers`, with mainnet's zero state: how a source finds them. */
export function loopbackGlobalConfig(...servers: LoopbackLiteserver[]): object {
  return {
    '@type': 'config.global',
    liteservers: servers.map((s) => s.configEntry()),
    validator: {
      '@type': 'validator.config.global',
      zero_state: { workchain: -1, seqno: 0, root_hash: MAINNET_ZERO_STATE.rootHash.toString('base64'), file_hash: MAINNET_ZERO_STATE.fileHash.toString('base64') },
    },
  };
}

/** createLiteserverSource's options for `servers`: a fresh start, short backoffs, timeouts scaled to the tests' patience. */
export function loopbackSourceOptions(servers: LoopbackLiteserver[]) {
  return {
    network: 'mainnet' as const,
    globalConfig: loopbackGlobalConfig(...servers),
    fromSeqno: null,
    backoffInitialMs: 20,
    backoffMaxMs: 50,
    queryTimeoutMs: patience(3_000),
    connectTimeoutMs: patience(1_000),
  };
}

const NOT_READY = 651;
const TIMEOUT = 652;
const PROTOVIOLATION = 621;

export interface LoopbackLiteserverOptions {
  blocks?: ServedBlock[];
  /** Masterchain seqno reported as the head; default: the newest visible masterchain block. */
  head?: number | null;
  zeroState?: { rootHash: Buffer; fileHash: Buffer };
  key?: ServerKey;
}

export interface RequestLogEntry {
  fn: string;
  /** `wc:SHARD:seqno` of the block a request names, if any. */
  block?: string;
}

export class LoopbackLiteserver {
  readonly key: ServerKey;
  /** Every request received, in order. */
  readonly requests: RequestLogEntry[] = [];
  /** Serve these bytes instead of the real ones for a block (return null to serve the real bytes). */
  tamper: ((b: ServedBlock) => Buffer | null) | null = null;
  /**
   * Recorded `liteServer.accountState` answers by the asked block's root hash (hex): the proof and state bytes to
   * serve for an account (`wc:hex`). A block with no recording is answered "not in db".
   */
  readonly accountStates = new Map<string, (account: string) => { proof: Uint8Array; state: Uint8Array }>();
  /** Serve these bytes instead of a `getShardBlockProof` link's proof (return null to serve the real proof). */
  tamperProof: ((proof: Buffer) => Buffer | null) | null = null;
  /**
   * The validator signatures of masterchain blocks by root hash (hex), served in `getBlockProof`'s forward link
   * (test/helpers/liteserver/signatures.ts makes them). A block without one is answered "no signatures".
   */
  readonly signatureSets = new Map<string, SignatureSetSpec>();
  /** Serve this signature set instead of the recorded one (return null to serve the recorded one). */
  tamperSignatures: ((set: SignatureSetSpec) => SignatureSetSpec | null) | null = null;
  /**
   * Serve this instead of the true `getBlockProof` answer of backward links (return null to serve the true one):
   * `complete`, the chain's ends and its links as {@link backLink} builds them.
   */
  tamperBackProof: ((answer: BackProofSpec) => BackProofSpec | null) | null = null;
  /** Read queries but never answer them (a hung liteserver). */
  stall = false;
  handshakes = 0;

  private readonly blocks = new Map<string, ServedBlock>();
  /** Each masterchain block's shard top blocks, parsed once (whole blocks are slow to parse). */
  private readonly tops = new WeakMap<ServedBlock, ReturnType<typeof shardTops>>();
  private readonly mcProofs = new WeakMap<ServedBlock, Buffer>();
  private readonly hidden = new Set<string>();
  private head: number | null;
  private readonly zeroState: { rootHash: Buffer; fileHash: Buffer };
  private readonly sockets = new Set<net.Socket>();
  private server: net.Server | null = null;
  private portNumber = 0;

  constructor(opts: LoopbackLiteserverOptions = {}) {
    this.key = opts.key ?? createServerKey();
    this.head = opts.head ?? null;
    this.zeroState = opts.zeroState ?? MAINNET_ZERO_STATE;
    for (const b of opts.blocks ?? []) this.add(b);
  }

  get host(): string {
    return '127.0.0.1';
  }

  get port(): number {
    return this.portNumber;
  }

  /** For `connectLiteserver`. */
  get endpoint(): { host: string; port: number; publicKey: Uint8Array } {
    return { host: this.host, port: this.port, publicKey: this.key.publicKey };
  }

  /** This server as a global config `liteservers[]` entry (127.0.0.1 = 2130706433). */
  configEntry(): { ip: number; port: number; id: { '@type': 'pub.ed25519'; key: string } } {
    return { ip: 2130706433, port: this.port, id: { '@type': 'pub.ed25519', key: Buffer.from(this.key.publicKey).toString('base64') } };
  }

  add(b: ServedBlock): this {
    this.blocks.set(blockKey(b), b);
    return this;
  }

  /** Known but not served: answered "not found" until {@link publish}. */
  hide(b: ServedBlock): this {
    this.add(b);
    this.hidden.add(blockKey(b));
    return this;
  }

  publish(b: ServedBlock): this {
    this.add(b);
    this.hidden.delete(blockKey(b));
    return this;
  }

  setHead(seqno: number | null): this {
    this.head = seqno;
    return this;
  }

  /** How many requests of `fn` (tl.ts short name) named `block`. */
  count(fn: string, block?: ServedBlock | string): number {
    const key = typeof block === 'string' ? block : block ? blockKey(block) : undefined;
    return this.requests.filter((r) => r.fn === fn && (key === undefined || r.block === key)).length;
  }

  async start(port = 0): Promise<this> {
    const server = net.createServer((sock) => this.accept(sock));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.portNumber = (server.address() as net.AddressInfo).port;
    return this;
  }

  /** Drops every connection at once and stops listening, like a process that died. */
  async kill(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  close(): Promise<void> {
    return this.kill();
  }

  // -------------------------------------------------------------------------------------------------------------

  private visible(key: string): ServedBlock | null {
    const b = this.blocks.get(key);
    if (!b || this.hidden.has(key)) return null;
    if (b.workchain === -1 && b.seqno > this.headSeqno()) return null;
    return b;
  }

  private headSeqno(): number {
    if (this.head !== null) return this.head;
    let max = 0;
    for (const [k, b] of this.blocks) if (b.workchain === -1 && !this.hidden.has(k)) max = Math.max(max, b.seqno);
    return max;
  }

  private headBlock(): ServedBlock | null {
    return this.visible(blockKey({ workchain: -1, shard: MC_SHARD, seqno: this.headSeqno() }));
  }

  private accept(sock: net.Socket): void {
    this.sockets.add(sock);
    sock.setNoDelay(true);
    let session: Session | null = null;
    let opening = Buffer.alloc(0);
    let plain = Buffer.alloc(0);
    const send = (payload: Buffer): void => {
      if (session && !sock.destroyed) sock.write(session.tx.update(framePacket(payload)));
    };
    const onStream = (chunk: Buffer): void => {
      plain = Buffer.concat([plain, session!.rx.update(chunk)]);
      const { payloads, rest } = takePackets(plain);
      plain = Buffer.from(rest);
      for (const p of payloads) this.onPayload(p, send);
    };
    sock.on('data', (chunk: Buffer) => {
      try {
        if (session) return onStream(chunk);
        opening = Buffer.concat([opening, chunk]);
        if (opening.length < HANDSHAKE_BYTES) return;
        session = acceptHandshake(this.key, opening.subarray(0, HANDSHAKE_BYTES));
        this.handshakes++;
        // An empty packet tells the client the handshake is accepted.
        send(Buffer.alloc(0));
        const rest = opening.subarray(HANDSHAKE_BYTES);
        if (rest.length > 0) onStream(rest);
      } catch {
        // A real liteserver drops a peer that breaks the protocol; so do we.
        sock.destroy();
      }
    });
    sock.on('error', () => {});
    sock.on('close', () => this.sockets.delete(sock));
  }

  private onPayload(payload: Buffer, send: (p: Buffer) => void): void {
    const r = new TlReader(payload);
    const id = r.int32();
    if (id === TL.tcpPing) {
      this.requests.push({ fn: 'tcpPing' });
      send(new TlWriter().int32(TL.tcpPong).int64(r.int64()).build());
      return;
    }
    if (id !== TL.adnlQuery) throw new Error(`unexpected ADNL message ${tlName(id)}`);
    const queryId = r.int256();
    const query = r.bytes();
    void this.answer(query).then((answer) => {
      if (answer) send(new TlWriter().int32(TL.adnlAnswer).int256(queryId).bytes(answer).build());
    });
  }

  private async answer(query: Buffer): Promise<Buffer | null> {
    const outer = new TlReader(query);
    if (outer.int32() !== TL.liteQuery) return error(PROTOVIOLATION, 'expected liteServer.query');
    const r = new TlReader(outer.bytes());
    let fn = r.int32();
    if (fn === TL.waitMasterchainSeqno) {
      const seqno = r.int32();
      const timeoutMs = r.int32();
      this.requests.push({ fn: 'waitMasterchainSeqno' });
      const until = Date.now() + timeoutMs;
      while (this.headSeqno() < seqno && Date.now() < until) await new Promise((res) => setTimeout(res, 20));
      if (this.headSeqno() < seqno) return error(TIMEOUT, `timed out waiting for masterchain block ${seqno}`);
      fn = r.int32();
    }
    const entry: RequestLogEntry = { fn: tlName(fn) };
    this.requests.push(entry);
    if (this.stall) return null;
    const now = Math.floor(Date.now() / 1000);
    switch (fn) {
      case TL.getTime:
        return new TlWriter().int32(TL.currentTime).int32(now).build();
      case TL.getVersion:
        return new TlWriter().int32(TL.version).uint32(0).int32(0x101).int64(7n).int32(now).build();
      case TL.getMasterchainInfo:
      case TL.getMasterchainInfoExt: {
        const mode = fn === TL.getMasterchainInfoExt ? r.uint32() : 0;
        const head = this.headBlock();
        if (!head) return error(NOT_READY, 'no masterchain block yet');
        const w = new TlWriter();
        if (fn === TL.getMasterchainInfoExt) {
          w.int32(TL.masterchainInfoExt).uint32(mode).int32(0x101).int64(7n);
          writeBlockIdExt(w, head).int32(head.info.genUtime).int32(now);
        } else {
          writeBlockIdExt(w.int32(TL.masterchainInfo), head);
        }
        return w.int256(stateRootHash(head)).int32(-1).int256(this.zeroState.rootHash).int256(this.zeroState.fileHash).build();
      }
      case TL.lookupBlock: {
        const mode = r.uint32();
        const id = readBlockId(r);
        const lt = mode & 2 ? r.int64() : null;
        const utime = mode & 4 ? r.int32() : null;
        entry.block = blockKey(id);
        const b = this.lookup(id, mode, lt, utime);
        if (!b) return error(NOT_READY, `block ${blockKey(id)} not found`);
        return writeBlockIdExt(new TlWriter().int32(TL.blockHeader), b).uint32(mode).bytes(headerProof(b)).build();
      }
      case TL.getBlock:
      case TL.getBlockHeader:
      case TL.getAllShardsInfo: {
        const id = readBlockIdExt(r);
        entry.block = blockKey(id);
        const b = this.visible(blockKey(id));
        if (!b || !b.rootHash.equals(id.rootHash) || !b.fileHash.equals(id.fileHash)) return error(NOT_READY, `block ${blockKey(id)} is not in db`);
        if (fn === TL.getBlock) return writeBlockIdExt(new TlWriter().int32(TL.blockData), b).bytes(this.tamper?.(b) ?? b.data).build();
        if (fn === TL.getBlockHeader) return writeBlockIdExt(new TlWriter().int32(TL.blockHeader), b).uint32(r.uint32()).bytes(headerProof(b)).build();
        if (b.workchain !== -1) return error(PROTOVIOLATION, 'getAllShardsInfo needs a masterchain block');
        return writeBlockIdExt(new TlWriter().int32(TL.allShardsInfo), b).bytes(Buffer.alloc(0)).bytes(shardHashesCell(b).toBoc({ idx: false, crc32: false })).build();
      }
      case TL.getShardBlockProof: {
        const id = readBlockIdExt(r);
        entry.block = blockKey(id);
        const b = this.visible(blockKey(id));
        if (!b || !b.rootHash.equals(id.rootHash) || !b.fileHash.equals(id.fileHash)) return error(NOT_READY, `block ${blockKey(id)} is not in db`);
        const found = this.shardProof(b);
        if (!found) return error(NOT_READY, `no masterchain block commits ${blockKey(id)}`);
        const w = writeBlockIdExt(new TlWriter().int32(TL.shardBlockProof), found.mc).int32(found.links.length);
        for (const l of found.links) writeBlockIdExt(w, l.id).bytes(this.tamperProof?.(l.proof) ?? l.proof);
        return w.build();
      }
      case TL.getBlockProof: {
        // Back to an older block (one blockLinkBack, mc-state.ts), or forward from a key block to a block of its
        // validator epoch: one blockLinkForward whose config_proof proves the key block's config and dest_proof the
        // target's header.
        const mode = r.int32();
        const known = readBlockIdExt(r);
        if (!(mode & 1)) return error(PROTOVIOLATION, 'getBlockProof without a target block is not served');
        const target = readBlockIdExt(r);
        entry.block = blockKey(target);
        const from = this.visible(blockKey(known));
        const to = this.visible(blockKey(target));
        if (!from || !from.rootHash.equals(known.rootHash)) return error(NOT_READY, `block ${blockKey(known)} is not in db`);
        if (!to || !to.rootHash.equals(target.rootHash)) return error(NOT_READY, `block ${blockKey(target)} is not in db`);
        const bool = (v: boolean) => (v ? TL.boolTrue : TL.boolFalse);
        if (from.seqno > to.seqno) {
          // Back from a newer block: one blockLinkBack, as liteserver.cpp links straight to any block the newer
          // block's state lists in prev_blocks.
          const truth: BackProofSpec = { complete: true, from, to, links: [backLink(from, to)] };
          const a = this.tamperBackProof?.(truth) ?? truth;
          const w = writeBlockIdExt(writeBlockIdExt(new TlWriter().int32(TL.partialBlockProof).int32(bool(a.complete)), a.from), a.to).int32(a.links.length);
          for (const l of a.links) {
            writeBlockIdExt(writeBlockIdExt(w.int32(TL.blockLinkBack).int32(bool(l.toKeyBlock)), l.from), l.to);
            w.bytes(l.destProof).bytes(l.proof).bytes(l.stateProof);
          }
          return w.build();
        }
        if (!from.info.keyBlock || from.seqno >= to.seqno) return error(PROTOVIOLATION, 'only forward links from a key block are served');
        const recorded = this.signatureSets.get(to.rootHash.toString('hex'));
        if (!recorded) return error(NOT_READY, `no signatures of ${blockKey(target)}`);
        const set = this.tamperSignatures?.(recorded) ?? recorded;
        const w = writeBlockIdExt(writeBlockIdExt(new TlWriter().int32(TL.partialBlockProof).int32(bool(true)), from), to).int32(1);
        writeBlockIdExt(writeBlockIdExt(w.int32(TL.blockLinkForward).int32(bool(to.info.keyBlock)), from), to);
        w.bytes(headerProof(to)).bytes(keyConfigProof(from));
        w.int32(TL.signatureSet).int32(set.validatorSetHash).int32(set.catchainSeqno).int32(set.signatures.length);
        // `(vector liteServer.signature)`: lower case, bare elements.
        for (const sig of set.signatures) w.int256(sig.nodeIdShort).bytes(sig.signature);
        return w.build();
      }
      case TL.getAccountState: {
        const id = readBlockIdExt(r);
        // `account:liteServer.accountId` is bare: workchain:int id:int256.
        const account = `${r.int32()}:${r.int256().toString('hex')}`;
        entry.block = blockKey(id);
        const recorded = this.accountStates.get(id.rootHash.toString('hex'));
        if (!recorded) return error(NOT_READY, `block ${blockKey(id)} is not in db`);
        const a = recorded(account);
        const w = writeBlockIdExt(new TlWriter().int32(TL.accountState), id);
        return writeBlockIdExt(w, id).bytes(Buffer.alloc(0)).bytes(a.proof).bytes(a.state).build();
      }
      default:
        return error(PROTOVIOLATION, `unsupported query ${tlName(fn)}`);
    }
  }

  /**
   * What a liteserver answers `getShardBlockProof` with: the first masterchain block (lowest seqno) one of whose shard
   * top blocks is `b` or reaches it by at most 7 prev links, then the links: the masterchain block's proof naming the
   * top block, and each block's header proof naming the next one down.
   */
  private shardProof(b: ServedBlock): { mc: ServedBlock; links: Array<{ id: ServedBlock; proof: Buffer }> } | null {
    const mcs = [...this.blocks.keys()]
      .map((k) => this.visible(k))
      .filter((m): m is ServedBlock => m !== null && m.workchain === -1)
      .sort((x, y) => x.seqno - y.seqno);
    const served = (id: { workchain: number; shard: bigint; seqno: number; rootHash: Buffer }): ServedBlock | null => {
      const s = this.visible(blockKey(id));
      return s && s.rootHash.equals(id.rootHash) ? s : null;
    };
    // Blocks from a top block down to `b`, or null.
    const down = (top: ServedBlock, depth: number): ServedBlock[] | null => {
      if (top.rootHash.equals(b.rootHash)) return [top];
      if (depth >= 7) return null;
      for (const p of prevIds(top)) {
        const prev = served(p);
        const rest = prev ? down(prev, depth + 1) : null;
        if (rest) return [top, ...rest];
      }
      return null;
    };
    for (const mc of mcs) {
      let tops = this.tops.get(mc);
      if (!tops) this.tops.set(mc, (tops = shardTops(mc)));
      for (const t of tops) {
        const top = served(t);
        const path = top && t.fileHash.equals(top.fileHash) ? down(top, 0) : null;
        if (!path) continue;
        let first = this.mcProofs.get(mc);
        if (!first) this.mcProofs.set(mc, (first = mcShardsProof(mc)));
        return { mc, links: path.map((blk, i) => ({ id: blk, proof: i === 0 ? first : headerProof(path[i - 1]!) })) };
      }
    }
    return null;
  }

  /** lookupBlock: by seqno (mode 1), by lt (mode 2: the block whose lt range holds it) or utime (mode 4: last at or before). */
  private lookup(id: { workchain: number; shard: bigint; seqno: number }, mode: number, lt: bigint | null, utime: number | null): ServedBlock | null {
    if (mode & 1) return this.visible(blockKey(id));
    const candidates = [...this.blocks.keys()]
      .map((k) => this.visible(k))
      .filter((b): b is ServedBlock => b !== null && b.workchain === id.workchain && b.shard === id.shard);
    if (lt !== null) return candidates.find((b) => b.info.startLt <= lt && lt <= b.info.endLt) ?? null;
    if (utime !== null) {
      const before = candidates.filter((b) => b.info.genUtime <= utime).sort((a, b) => b.info.genUtime - a.info.genUtime);
      return before[0] ?? null;
    }
    return null;
  }
}

/** A `liteServer.partialBlockProof` of backward links, as served. */
export interface BackProofSpec {
  complete: boolean;
  from: ServedBlock;
  to: ServedBlock;
  links: BackLinkSpec[];
}

function error(code: number, message: string): Buffer {
  return new TlWriter().int32(TL.error).int32(code).string(message).build();
}

/** Starts a loopback liteserver on an ephemeral port. */
export function startLoopbackLiteserver(opts: LoopbackLiteserverOptions = {}): Promise<LoopbackLiteserver> {
  return new LoopbackLiteserver(opts).start();
}
