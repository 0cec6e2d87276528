import { NonRetryableError } from '../../runtime/errors.js';
import { Boc } from '../boc/reader.js';
import { Slice } from '../boc/slice.js';

/**
 * The classifier's input: one complete trace as TON Center stores it (trace row, its transactions, each with its
 * messages and their bodies), and the tree of event nodes the matchers walk (indexing-semantics §6, actions.md
 * "How the classifier works", step 1).
 */

export interface TraceMessage {
  msg_hash: string;
  tx_hash: string;
  direction: 'in' | 'out';
  source: string | null;
  destination: string | null;
  value: number | string | null;
  fwd_fee?: number | string | null;
  created_lt: string | null;
  created_at: number | null;
  opcode: number | null;
  bounce: boolean | null;
  bounced: boolean | null;
  value_extra_currencies?: Record<string, string> | null;
  /** Base64 BOC of the body, or null when the body was not recorded. */
  body: string | null;
  /**
   * Base64 BOC of the StateInit the message carries, when the reader has it (the action stage reads it only where a
   * matcher needs it: the deployment of a getgems sale, whose listing is read from it).
   */
  init_state?: string | null;
}

export interface TraceTransaction {
  hash: string;
  account: string;
  lt: string;
  now: number;
  mc_block_seqno: number | null;
  orig_status: string;
  end_status: string;
  total_fees?: number | string | null;
  descr: string;
  aborted: boolean;
  compute_exit_code: number | null;
  skipped_reason?: string | null;
  emulated?: boolean;
  messages: TraceMessage[];
}

export interface TraceInfo {
  trace_id: string;
  external_hash: string | null;
  external_hash_norm?: string | null;
  mc_seqno_end: number | null;
  start_lt: string;
  start_utime: number;
  end_lt: string;
  end_utime: number;
}

export interface Trace {
  trace: TraceInfo;
  transactions: TraceTransaction[];
}

/** One node of the trace tree: a message and the transaction it started (or the tick-tock transaction itself). */
export class EventNode {
  parent: EventNode | null = null;
  readonly children: EventNode[] = [];
  failed: boolean;
  /** lt of the message's creation (the transaction's lt for external-in and tick-tock). */
  readonly lt: bigint;
  readonly txLt: bigint;
  readonly utime: number;
  private boc: Boc | null = null;

  constructor(
    readonly message: TraceMessage,
    /** The transaction processing `message` (null for an ext-out message, which no transaction receives). */
    readonly tx: TraceTransaction,
    readonly isTickTock = false,
    readonly ghost = false,
  ) {
    this.failed = tx.aborted;
    this.txLt = BigInt(tx.lt);
    const created = !isTickTock && message.created_lt !== null;
    this.lt = created ? BigInt(message.created_lt!) : this.txLt;
    this.utime = created ? message.created_at! : tx.now;
  }

  /** The message body's root slice (the BOC is parsed once per node). */
  body(): Slice {
    if (this.boc === null) this.boc = Boc.parse(Buffer.from(this.message.body ?? '', 'base64'));
    return new Slice(this.boc, this.boc.root);
  }

  /** Unsigned 32-bit opcode or null. */
  get opcode(): number | null {
    return this.message.opcode === null || this.message.opcode === undefined ? null : this.message.opcode >>> 0;
  }

  get txHash(): string {
    return this.isTickTock ? this.tx.hash : this.message.tx_hash;
  }

  addChild(c: EventNode): void {
    this.children.push(c);
    c.parent = this;
  }
}

export class TraceShapeError extends NonRetryableError {
  constructor(message: string) {
    super('TRACE_SHAPE', message);
  }
}

/**
 * Builds the tree: each transaction's node is its inbound message; its outbound messages are its children (the
 * node of the transaction receiving each, or a leaf for an ext-out message). Throws when a message's receiving
 * transaction is missing (an incomplete trace) or a body is absent.
 */
export function toTree(txs: TraceTransaction[]): EventNode {
  if (txs.length === 0) throw new TraceShapeError('trace has no transactions');
  const byInMsg = new Map<string, TraceTransaction>();
  const nodes = new Map<string, EventNode>();
  const nodeOf = (tx: TraceTransaction): EventNode => {
    let n = nodes.get(tx.hash);
    if (n) return n;
    const inMsg = tx.messages.find((m) => m.direction === 'in');
    if (tx.descr === 'tick_tock') {
      n = new EventNode(
        inMsg ?? { msg_hash: tx.hash, tx_hash: tx.hash, direction: 'in', source: null, destination: tx.account, value: null, created_lt: null, created_at: null, opcode: null, bounce: null, bounced: null, body: null },
        tx,
        true,
      );
    } else {
      if (!inMsg) throw new TraceShapeError(`transaction ${tx.hash} has no inbound message`);
      if (inMsg.body === null) throw new TraceShapeError(`message ${inMsg.msg_hash} has no body`);
      n = new EventNode(inMsg, tx);
    }
    nodes.set(tx.hash, n);
    return n;
  };
  for (const tx of txs) {
    const inMsg = tx.messages.find((m) => m.direction === 'in');
    if (inMsg) byInMsg.set(inMsg.msg_hash, tx);
  }
  const lts = new Map(txs.map((t) => [t, BigInt(t.lt)]));
  const sorted = [...txs].sort((a, b) => (lts.get(b)! > lts.get(a)! ? 1 : lts.get(b)! < lts.get(a)! ? -1 : 0));
  for (const tx of sorted) {
    const n = nodeOf(tx);
    for (const m of tx.messages) {
      if (m.direction !== 'out') continue;
      if (m.destination === null) {
        if (m.body === null) throw new TraceShapeError(`message ${m.msg_hash} has no body`);
        n.addChild(new EventNode(m, tx));
        continue;
      }
      const child = byInMsg.get(m.msg_hash);
      if (!child) throw new TraceShapeError(`message ${m.msg_hash} has no receiving transaction in the trace`);
      n.addChild(nodeOf(child));
    }
  }
  let root = nodeOf(sorted[sorted.length - 1]!);
  while (root.parent) root = root.parent;
  return root;
}
