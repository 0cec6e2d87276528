import { expect } from 'vitest';
import { createFilesSource } from '../../shared/sources/files.js';
import type { Store } from '../../shared/store/store.js';
import { SYSTEM_ADDRESS } from '../../shared/ton/traces.js';
import { decodeBlock } from '../../shared/ton/decode-block.js';

/**
 * Traces of a block directory worked out independently of the trace stage: every block decoded, each transaction
 * linked to the one whose out-message it received (a graph walk, not the stage's masterchain-ordered assembly),
 * trees rooted at transactions nothing known sent to. What a trace stage that stored the same directory must show.
 */
export interface ExpectedTrace {
  traceId: string;
  txs: string[];
  state: 'complete' | 'pending' | 'broken';
  messages: number;
  pendingMessages: number;
  mcSeqnoStart: number;
  mcSeqnoEnd: number;
  startLt: string;
  endLt: string;
  externalHash: string | null;
}

export interface ExpectedTraces {
  traces: Map<string, ExpectedTrace>;
  traceOf: Map<string, string>;
  /** Masterchain blocks with their group in the directory (what the follower publishes masterchain-block messages for). */
  mcSeqnos: number[];
}

export async function expectedTraces(dir: string): Promise<ExpectedTraces> {
  const source = await createFilesSource({ dir });
  interface Tx {
    hash: string;
    lt: bigint;
    mc: number;
    inHash: string | null;
    inSource: string | null | undefined;
    outs: Array<{ hash: string; dest: boolean }>;
  }
  const txs: Tx[] = [];
  const mcSeqnos: number[] = [];
  for await (const g of source.groups(null, new AbortController().signal)) {
    // Only groups that end in their masterchain block are traced (a masterchain-block message lists them).
    const last = g.blocks.at(-1);
    if (g.mcSeqno === null || last === undefined || last.id.workchain !== -1) continue;
    mcSeqnos.push(g.mcSeqno);
    for (const b of g.blocks) {
      for (const t of decodeBlock(b.data).transactions) {
        txs.push({
          hash: t.hash,
          lt: BigInt(t.lt),
          mc: g.mcSeqno,
          inHash: t.in_msg?.hash ?? null,
          inSource: t.in_msg ? t.in_msg.source : undefined,
          outs: t.out_msgs.map((m) => ({ hash: m.hash, dest: m.destination !== null })),
        });
      }
    }
  }
  await source.close();
  const senderOf = new Map<string, Tx>();
  for (const t of txs) for (const o of t.outs) if (o.dest) senderOf.set(o.hash, t);
  const receiverOf = new Map<string, Tx>();
  for (const t of txs) if (t.inHash !== null) receiverOf.set(t.inHash, t);
  const rootOf = (t: Tx): Tx => {
    let cur = t;
    for (;;) {
      const parent = cur.inHash === null ? undefined : senderOf.get(cur.inHash);
      if (parent === undefined) return cur;
      cur = parent;
    }
  };
  const traces = new Map<string, ExpectedTrace>();
  const traceOf = new Map<string, string>();
  for (const t of txs) {
    const root = rootOf(t);
    traceOf.set(t.hash, root.hash);
    let e = traces.get(root.hash);
    if (!e) {
      const rootEdge = root.inHash !== null && (root.inSource === null || root.inSource === SYSTEM_ADDRESS);
      e = {
        traceId: root.hash,
        txs: [],
        state: root.inHash !== null && !rootEdge ? 'broken' : 'pending',
        messages: rootEdge ? 1 : 0,
        pendingMessages: 0,
        mcSeqnoStart: root.mc,
        mcSeqnoEnd: root.mc,
        startLt: root.lt.toString(),
        endLt: root.lt.toString(),
        externalHash: root.inHash,
      };
      traces.set(root.hash, e);
    }
    e.txs.push(t.hash);
    if (t.mc > e.mcSeqnoEnd) e.mcSeqnoEnd = t.mc;
    if (t.lt > BigInt(e.endLt)) e.endLt = t.lt.toString();
    for (const o of t.outs) {
      if (!o.dest || receiverOf.has(o.hash)) e.messages++;
      else e.pendingMessages++;
    }
  }
  for (const e of traces.values()) if (e.state !== 'broken' && e.pendingMessages === 0) e.state = 'complete';
  return { traces, traceOf, mcSeqnos };
}

/** Checks what the trace stage stored against {@link expectedTraces}. */
export async function expectStoredTraces(store: Store, want: ExpectedTraces): Promise<void> {
  const progress = await store.query<{ p: number }>("SELECT max(mc_seqno) AS p FROM trace_progress WHERE stage = 'traces'");
  expect(Number(progress[0]!.p)).toBe(Math.max(...want.mcSeqnos));
  // No transaction ever written with two trace ids (raw rows, not FINAL), and each one once under FINAL.
  const twice = await store.query<{ tx_hash: string }>('SELECT tx_hash FROM trace_transactions GROUP BY tx_hash HAVING uniqExact(trace_id) > 1');
  expect(twice).toEqual([]);
  const links = await store.query<{ tx_hash: string; trace_id: string }>('SELECT tx_hash, trace_id FROM trace_transactions FINAL');
  expect(links.length).toBe(want.traceOf.size);
  const got = new Map(links.map((l) => [l.tx_hash, l.trace_id]));
  for (const [tx, trace] of want.traceOf) expect(got.get(tx), `trace of ${tx}`).toBe(trace);
  const rows = await store.query<{
    trace_id: string;
    state: string;
    transactions: number;
    messages: number;
    pending_messages: number;
    mc_seqno_start: number;
    mc_seqno_end: number;
    start_lt: string;
    end_lt: string;
    external_hash: string | null;
  }>(
    'SELECT trace_id, toString(state) AS state, transactions, messages, pending_messages, mc_seqno_start, mc_seqno_end, toString(start_lt) AS start_lt, toString(end_lt) AS end_lt, external_hash FROM traces FINAL',
  );
  expect(rows.length).toBe(want.traces.size);
  for (const r of rows) {
    const e = want.traces.get(r.trace_id);
    expect(e, `trace ${r.trace_id}`).toBeDefined();
    expect(
      {
        state: r.state,
        transactions: Number(r.transactions),
        messages: Number(r.messages),
        pending: Number(r.pending_messages),
        mc: [Number(r.mc_seqno_start), Number(r.mc_seqno_end)],
        lt: [r.start_lt, r.end_lt],
        external_hash: r.external_hash,
      },
      r.trace_id,
    ).toEqual({
      state: e!.state,
      transactions: e!.txs.length,
      messages: e!.messages,
      pending: e!.pendingMessages,
      mc: [e!.mcSeqnoStart, e!.mcSeqnoEnd],
      lt: [e!.startLt, e!.endLt],
      external_hash: e!.externalHash,
    });
  }
}
