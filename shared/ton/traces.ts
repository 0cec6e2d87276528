/**
 * Trace assembly as TON Center's indexer does it (ton-index-worker's TraceAssembler; indexing-semantics.md §1.1,
 * §1.2): once per masterchain block, in masterchain order, over every transaction of the block and of the shard
 * blocks it commits, sorted by (lt, workchain, account address). A transaction whose in-message some earlier
 * transaction sent joins that transaction's trace; any other transaction starts a trace of its own, whose id is its
 * hash. Messages sent to an address stay in flight (pending edges) until their transaction comes, blocks or
 * shards later. A trace is complete once nothing of it is in flight; broken when a message arrived that nothing
 * known sent (or its count of messages in flight went below zero).
 *
 * Pure: the caller loads the in-flight state (traces and edges) and stores what each block changed.
 */

/** The system address (masterchain zero account): messages from it start `sys` traces (elector, config). */
export const SYSTEM_ADDRESS = '-1:0000000000000000000000000000000000000000000000000000000000000000';

/** A transaction as the assembler needs it. Hashes are TON Center's b64; `account` is a raw address `wc:HEX`. */
export interface TraceTx {
  hash: string;
  account: string;
  lt: bigint;
  now: number;
  /** Null for transactions without one (tick-tock, split/merge). */
  inMsg: {
    hash: string;
    /** Null for an external-in message. */
    source: string | null;
    /** TEP-467 normalized hash of an external-in message, when it differs from `hash`. */
    hashNorm: string | null;
  } | null;
  /** Out-messages: `hasDestination` false for external-out messages (logs), which complete at once. */
  outMsgs: Array<{ hash: string; hasDestination: boolean }>;
}

export type TraceState = 'complete' | 'pending' | 'broken';

/** A transaction of a trace, as a trace's consumers get it. */
export interface TraceTxRef {
  hash: string;
  account: string;
  lt: bigint;
  now: number;
  mcSeqno: number;
}

export interface Trace {
  traceId: string;
  externalHash: string | null;
  externalHashNorm: string | null;
  mcSeqnoStart: number;
  mcSeqnoEnd: number;
  startLt: bigint;
  startUtime: number;
  endLt: bigint;
  endUtime: number;
  state: TraceState;
  /** Transactions (nodes). */
  transactions: number;
  /** Completed message edges: the root's ext-in/sys edge, delivered internal messages, external-out messages. */
  messages: number;
  /** Internal messages sent and not yet received. */
  pendingMessages: number;
  /** The trace's transactions in assembly order. */
  txs: TraceTxRef[];
}

/** A message between two transactions of a trace; `rightTx` null while it is in flight. */
export interface Edge {
  msgHash: string;
  traceId: string;
  leftTx: string;
  rightTx: string | null;
  mcSeqnoCreated: number;
}

/** What assembling one masterchain block changed. */
export interface McBlockAssembly {
  mcSeqno: number;
  /** Each transaction's trace, in assembly order. */
  txTraces: Array<{ tx: TraceTxRef; traceId: string }>;
  /** Every trace the block touched, as it stands after the block. */
  traces: Trace[];
  /** Those of `traces` that completed with this block. */
  completed: Trace[];
  /** Every edge the block created or delivered, as it stands after the block (one entry per message). */
  edges: Edge[];
}

/** In-flight state: traces with messages in flight, and those messages. */
export interface AssemblerState {
  traces: Iterable<Trace>;
  edges: Iterable<Edge>;
}

/** TON Center's order within a masterchain block: lt, then workchain, then account address bytes. */
export function compareTraceTx(a: TraceTx, b: TraceTx): number {
  if (a.lt !== b.lt) return a.lt < b.lt ? -1 : 1;
  const [wa, ha] = splitAddress(a.account);
  const [wb, hb] = splitAddress(b.account);
  if (wa !== wb) return wa - wb;
  return ha < hb ? -1 : ha > hb ? 1 : 0;
}

function splitAddress(raw: string): [number, string] {
  const i = raw.indexOf(':');
  // Upper-case hex of equal length orders as the bytes do.
  return [Number(raw.slice(0, i)), raw.slice(i + 1).toUpperCase()];
}

export class TraceAssembler {
  private readonly pendingTraces = new Map<string, Trace>();
  private readonly pendingEdges = new Map<string, Edge>();

  constructor(state: AssemblerState = { traces: [], edges: [] }) {
    for (const t of state.traces) this.pendingTraces.set(t.traceId, t);
    for (const e of state.edges) if (e.rightTx === null) this.pendingEdges.set(e.msgHash, e);
  }

  /** Traces with messages in flight. */
  get inFlightTraces(): number {
    return this.pendingTraces.size;
  }

  /** Messages in flight. */
  get inFlightMessages(): number {
    return this.pendingEdges.size;
  }

  /** Assembles one masterchain block's transactions (those of its shard blocks included), in any order. */
  assemble(mcSeqno: number, transactions: readonly TraceTx[]): McBlockAssembly {
    const txs = [...transactions].sort(compareTraceTx);
    const touched = new Map<string, Trace>();
    const edges = new Map<string, Edge>();
    const txTraces: McBlockAssembly['txTraces'] = [];
    const start = (tx: TraceTx, ref: TraceTxRef): Trace => {
      const t: Trace = {
        traceId: tx.hash,
        externalHash: tx.inMsg?.hash ?? null,
        externalHashNorm: tx.inMsg?.source === null && tx.inMsg.hashNorm !== null && tx.inMsg.hashNorm !== tx.inMsg.hash ? tx.inMsg.hashNorm : null,
        mcSeqnoStart: mcSeqno,
        mcSeqnoEnd: mcSeqno,
        startLt: tx.lt,
        startUtime: tx.now,
        endLt: tx.lt,
        endUtime: tx.now,
        state: 'pending',
        transactions: 1,
        messages: 0,
        pendingMessages: 0,
        txs: [ref],
      };
      this.pendingTraces.set(t.traceId, t);
      return t;
    };
    for (const tx of txs) {
      const ref: TraceTxRef = { hash: tx.hash, account: tx.account, lt: tx.lt, now: tx.now, mcSeqno };
      let trace: Trace;
      if (tx.inMsg !== null) {
        const edge = this.pendingEdges.get(tx.inMsg.hash);
        if (edge !== undefined) {
          this.pendingEdges.delete(tx.inMsg.hash);
          const done: Edge = { ...edge, rightTx: tx.hash };
          edges.set(done.msgHash, done);
          const known = this.pendingTraces.get(edge.traceId);
          if (known !== undefined) {
            trace = known;
            trace.pendingMessages -= 1;
            trace.messages += 1;
            trace.transactions += 1;
            trace.txs.push(ref);
          } else {
            // The sending trace is gone (it was counted complete or broken already): TON Center roots a broken
            // trace at this transaction.
            trace = start(tx, ref);
            trace.state = 'broken';
          }
        } else {
          trace = start(tx, ref);
          if (tx.inMsg.source === null || tx.inMsg.source === SYSTEM_ADDRESS) trace.messages += 1;
          // An internal message nothing known sent: its edge is incomplete and the trace broken.
          else trace.state = 'broken';
        }
      } else {
        trace = start(tx, ref);
      }
      if (mcSeqno > trace.mcSeqnoEnd) trace.mcSeqnoEnd = mcSeqno;
      if (tx.lt > trace.endLt) trace.endLt = tx.lt;
      if (tx.now > trace.endUtime) trace.endUtime = tx.now;
      for (const m of tx.outMsgs) {
        if (m.hasDestination) {
          const e: Edge = { msgHash: m.hash, traceId: trace.traceId, leftTx: tx.hash, rightTx: null, mcSeqnoCreated: mcSeqno };
          this.pendingEdges.set(m.hash, e);
          edges.set(m.hash, e);
          trace.pendingMessages += 1;
        } else {
          trace.messages += 1;
        }
      }
      touched.set(trace.traceId, trace);
      txTraces.push({ tx: ref, traceId: trace.traceId });
    }
    const completed: Trace[] = [];
    for (const t of touched.values()) {
      if (t.pendingMessages === 0) {
        if (t.state !== 'broken') {
          t.state = 'complete';
          completed.push(t);
        }
        this.pendingTraces.delete(t.traceId);
      } else if (t.pendingMessages < 0) {
        t.state = 'broken';
      }
    }
    // Snapshots: the live objects go on changing with later blocks.
    const snap = (t: Trace): Trace => ({ ...t, txs: [...t.txs] });
    return { mcSeqno, txTraces, traces: [...touched.values()].map(snap), completed: completed.map(snap), edges: [...edges.values()] };
  }
}
