import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeFixtures, fixturesDir } from '../../test/helpers/fixtures.js';
import { type Trace, TraceAssembler, type TraceTx, compareTraceTx, SYSTEM_ADDRESS } from './traces.js';

/*
 * Trace assembly against TON Center's own trace rows: the action corpus (../shared/fixtures/action-corpus/traces)
 * holds recorded mainnet traces as TON Center's database has them, the trace row (trace_id, external_hash, lt and
 * utime spans, mc_seqno_start/end, state, nodes_, edges_, pending_edges_) with every transaction and its messages.
 * The transactions are fed to the assembler masterchain block by masterchain block, as the trace stage does; the
 * expected values are the recorded row's.
 */

interface CorpusMessage {
  msg_hash: string;
  direction: 'in' | 'out';
  source: string | null;
  destination: string | null;
}
interface CorpusTx {
  hash: string;
  account: string;
  lt: string;
  now: number;
  mc_block_seqno: number;
  trace_id: string;
  messages: CorpusMessage[];
}
interface CorpusTrace {
  trace: {
    trace_id: string;
    external_hash: string | null;
    mc_seqno_start: number;
    mc_seqno_end: number;
    start_lt: string;
    start_utime: number;
    end_lt: string;
    end_utime: number;
    state: string;
    pending_edges_: number;
    edges_: number;
    nodes_: number;
  };
  transactions: CorpusTx[];
}

function corpus(): CorpusTrace[] {
  const dir = path.join(fixturesDir, 'action-corpus', 'traces');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CorpusTrace);
}

function traceTx(t: CorpusTx): TraceTx {
  const inMsg = t.messages.find((m) => m.direction === 'in');
  return {
    hash: t.hash,
    account: t.account,
    lt: BigInt(t.lt),
    now: t.now,
    inMsg: inMsg ? { hash: inMsg.msg_hash, source: inMsg.source, hashNorm: null } : null,
    outMsgs: t.messages.filter((m) => m.direction === 'out').map((m) => ({ hash: m.msg_hash, hasDestination: m.destination !== null })),
  };
}

/** Assembles `txs` masterchain block by masterchain block; returns every trace as it last stood, and each tx's trace. */
function assembleAll(txs: CorpusTx[], assembler = new TraceAssembler()) {
  const byMc = new Map<number, CorpusTx[]>();
  for (const t of txs) {
    let list = byMc.get(t.mc_block_seqno);
    if (!list) byMc.set(t.mc_block_seqno, (list = []));
    list.push(t);
  }
  const traces = new Map<string, Trace>();
  const traceOf = new Map<string, string>();
  const completedAt = new Map<string, number>();
  for (const mc of [...byMc.keys()].sort((a, b) => a - b)) {
    const a = assembler.assemble(mc, byMc.get(mc)!.map(traceTx));
    for (const t of a.traces) traces.set(t.traceId, t);
    for (const t of a.completed) completedAt.set(t.traceId, (completedAt.get(t.traceId) ?? 0) + 1);
    for (const x of a.txTraces) {
      expect(traceOf.has(x.tx.hash), `transaction ${x.tx.hash} assembled twice`).toBe(false);
      traceOf.set(x.tx.hash, x.traceId);
    }
  }
  return { traces, traceOf, completedAt };
}

function expectAsRecorded(got: Trace | undefined, c: CorpusTrace): void {
  const r = c.trace;
  expect(got, r.trace_id).toBeDefined();
  expect({
    trace_id: got!.traceId,
    external_hash: got!.externalHash,
    mc_seqno_start: got!.mcSeqnoStart,
    mc_seqno_end: got!.mcSeqnoEnd,
    start_lt: got!.startLt.toString(),
    start_utime: got!.startUtime,
    end_lt: got!.endLt.toString(),
    end_utime: got!.endUtime,
    state: got!.state,
    pending_edges_: got!.pendingMessages,
    edges_: got!.messages,
    nodes_: got!.transactions,
  }).toEqual({
    trace_id: r.trace_id,
    external_hash: r.external_hash,
    mc_seqno_start: r.mc_seqno_start,
    mc_seqno_end: r.mc_seqno_end,
    start_lt: r.start_lt,
    start_utime: r.start_utime,
    end_lt: r.end_lt,
    end_utime: r.end_utime,
    state: r.state,
    pending_edges_: r.pending_edges_,
    edges_: r.edges_,
    nodes_: r.nodes_,
  });
  expect(got!.txs.map((t) => t.hash).sort()).toEqual(c.transactions.map((t) => t.hash).sort());
}

describeFixtures('trace assembly (TON Center action corpus, recorded mainnet traces)', () => {
  const all = corpus();

  it('reads the corpus: traces over one and over several masterchain blocks', () => {
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((c) => new Set(c.transactions.map((t) => t.mc_block_seqno)).size > 1).length).toBeGreaterThan(10);
  });

  it('assembles each recorded trace to TON Center’s row: id, external hash, lt/utime/mc spans, state and counts', () => {
    for (const c of all) {
      const { traces, traceOf, completedAt } = assembleAll(c.transactions);
      expectAsRecorded(traces.get(c.trace.trace_id), c);
      expect(traces.size, `${c.trace.trace_id}: one trace`).toBe(1);
      expect(completedAt.get(c.trace.trace_id), `${c.trace.trace_id} completes once`).toBe(1);
      for (const t of c.transactions) expect(traceOf.get(t.hash)).toBe(t.trace_id);
    }
  });

  it('assembles all of them at once, interleaved across masterchain blocks, to the same rows', () => {
    const { traces, traceOf, completedAt } = assembleAll(all.flatMap((c) => c.transactions));
    expect(traces.size).toBe(all.length);
    for (const c of all) {
      expectAsRecorded(traces.get(c.trace.trace_id), c);
      expect(completedAt.get(c.trace.trace_id)).toBe(1);
      for (const t of c.transactions) expect(traceOf.get(t.hash)).toBe(t.trace_id);
    }
  });

  it('goes on from a saved in-flight state as if it never stopped', () => {
    // Split the run at every masterchain block: the state after it (in-flight traces and edges) seeds a new
    // assembler, which must end with the same traces.
    const txs = all.flatMap((c) => c.transactions);
    const mcs = [...new Set(txs.map((t) => t.mc_block_seqno))].sort((a, b) => a - b);
    const cut = mcs[Math.floor(mcs.length / 2)]!;
    const first = new TraceAssembler();
    const live = new Map<string, Trace>();
    const edges = new Map<string, ReturnType<TraceAssembler['assemble']>['edges'][number]>();
    for (const mc of mcs.filter((m) => m <= cut)) {
      const a = first.assemble(mc, txs.filter((t) => t.mc_block_seqno === mc).map(traceTx));
      for (const t of a.traces) live.set(t.traceId, t);
      for (const t of a.traces) if (t.pendingMessages === 0) live.delete(t.traceId);
      for (const e of a.edges) edges.set(e.msgHash, e);
    }
    expect(live.size).toBeGreaterThan(0);
    const second = new TraceAssembler({ traces: live.values(), edges: [...edges.values()].filter((e) => e.rightTx === null) });
    const { traces } = assembleAll(txs.filter((t) => t.mc_block_seqno > cut), second);
    for (const c of all) {
      if (c.trace.mc_seqno_end <= cut) continue;
      expectAsRecorded(traces.get(c.trace.trace_id), c);
    }
  });
});

it('orders a masterchain block by lt, then workchain, then account', () => {
  const tx = (account: string, lt: bigint): TraceTx => ({ hash: `${account}@${lt}`, account, lt, now: 0, inMsg: null, outMsgs: [] });
  const list = [tx('0:BB', 5n), tx('0:AA', 5n), tx('-1:FF', 5n), tx('0:00', 4n)].sort(compareTraceTx);
  expect(list.map((t) => t.hash)).toEqual(['0:00@4', '-1:FF@5', '0:AA@5', '0:BB@5']);
});

it('starts sys traces at system messages, broken ones at messages nothing known sent, and counts external-out messages', () => {
  const a = new TraceAssembler();
  const r = a.assemble(10, [
    { hash: 'sys', account: '-1:5555', lt: 1n, now: 1, inMsg: { hash: 'm-sys', source: SYSTEM_ADDRESS, hashNorm: null }, outMsgs: [{ hash: 'log', hasDestination: false }] },
    { hash: 'orphan', account: '0:AA', lt: 2n, now: 1, inMsg: { hash: 'm-unknown', source: '0:BB', hashNorm: null }, outMsgs: [] },
    { hash: 'tick', account: '-1:3333', lt: 3n, now: 1, inMsg: null, outMsgs: [] },
    { hash: 'ext', account: '0:CC', lt: 4n, now: 1, inMsg: { hash: 'm-ext', source: null, hashNorm: 'm-ext-norm' }, outMsgs: [] },
  ]);
  const by = new Map(r.traces.map((t) => [t.traceId, t]));
  expect(by.get('sys')).toMatchObject({ state: 'complete', messages: 2, transactions: 1, externalHash: 'm-sys', externalHashNorm: null });
  expect(by.get('orphan')).toMatchObject({ state: 'broken', messages: 0, transactions: 1, externalHash: 'm-unknown' });
  expect(by.get('tick')).toMatchObject({ state: 'complete', messages: 0, externalHash: null });
  expect(by.get('ext')).toMatchObject({ state: 'complete', messages: 1, externalHash: 'm-ext', externalHashNorm: 'm-ext-norm' });
  expect(r.completed.map((t) => t.traceId).sort()).toEqual(['ext', 'sys', 'tick']);
});
