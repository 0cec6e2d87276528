import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeTrace } from '../../shared/contracts/trace.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { exportDevnet } from '../../shared/sources/devnet/export.js';
import { collect, waitFor } from '../helpers/bus-contract.js';
import { describeFixtures, fixturesDir } from '../helpers/fixtures.js';
import { openEmbedded } from '../helpers/pipeline.js';
import { type ExpectedTraces, expectStoredTraces, expectedTraces } from '../helpers/traces.js';

/*
 * The trace stage on real components: a block directory (the fixture blocks, and a devnet run on the real TVM with
 * traces spanning blocks and shards) → follower → in-process bus → decode stage and trace stage → chdb, composed
 * by `startPipeline` as `tonflow start` composes them (test/helpers/pipeline.ts). What they store is checked against
 * traces worked out from the decoded blocks by a graph walk (test/helpers/traces.ts), and the traces topic must carry
 * every complete trace once.
 */

let work = '';
let devnetDir = '';

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-traces-'));
  devnetDir = path.join(work, 'devnet');
  // Default traffic: wallet transfers, jetton transfers (wallet → jetton wallet → jetton wallet → owner, one block
  // per hop), NFT and DEX-like flows, in two shards.
  await exportDevnet({ out: devnetDir, transactions: 400, tps: 150, seed: 'tonflow-traces-test', genesisUtime: 1_760_000_000 });
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

async function runEmbedded(dir: string, want: ExpectedTraces): Promise<void> {
  const logger = createLogger({ service: 'traces-test', level: 'warn' });
  const p = await openEmbedded({ dir, dataDir: path.join(work, `data-${randomBytes(3).toString('hex')}`), name: 'traces', logger });
  try {
    const published = collect(p.bus, { groupId: 'reader', topics: [p.topics.traces] });
    const run = await p.start({ traces: true, actions: false });
    const last = Math.max(...want.mcSeqnos);
    await waitFor(() => run.traced >= last || run.poison.length > 0, 120_000, `traces of masterchain block ${last} stored`);
    expect(run.poison, 'messages dead-lettered').toEqual([]);
    const complete = [...want.traces.values()].filter((t) => t.state === 'complete');
    await waitFor(() => published.received.length >= complete.length, 30_000, 'complete traces published');
    await run.stop();
    await published.consumer.stop();

    await expectStoredTraces(p.store, want);
    // Each complete trace published once, with its transactions.
    const got = published.received.map((m) => decodeTrace(m));
    expect(got.map((t) => t.trace_id).sort()).toEqual(complete.map((t) => t.traceId).sort());
    for (const t of got) {
      const e = want.traces.get(t.trace_id)!;
      expect(t.trace_state).toBe('complete');
      expect(t.transactions.map((x) => x.hash).sort()).toEqual([...e.txs].sort());
      expect(t.messages).toBe(e.messages);
    }
  } finally {
    await p.close();
  }
}

describeFixtures('trace stage, embedded (in-process bus, chdb)', () => {
  it('traces the fixture masterchain blocks: every transaction in one trace, as a graph walk over the decoded blocks finds them', async () => {
    const want = await expectedTraces(path.join(fixturesDir, 'blocks'));
    expect(want.mcSeqnos.length).toBeGreaterThanOrEqual(4);
    await runEmbedded(path.join(fixturesDir, 'blocks'), want);
  }, 180_000);

  it('traces a devnet run across blocks and shards: complete, pending and the counts of each, published once', async () => {
    const want = await expectedTraces(devnetDir);
    const multi = [...want.traces.values()].filter((t) => t.state === 'complete' && t.mcSeqnoEnd - t.mcSeqnoStart >= 2);
    // The data has what the stage is for: traces over three or more masterchain blocks, and messages in flight at the end.
    expect(multi.length).toBeGreaterThan(5);
    await runEmbedded(devnetDir, want);
  }, 240_000);
});
