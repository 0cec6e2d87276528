import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openBus, openSource, openStore, sourceName } from '../../services/common/wiring.js';
import { createStoreCheckpoints } from '../../services/follower/checkpoints.js';
import { follow } from '../../services/follower/follow.js';
import { runDecodeStage } from '../../services/indexer/decode.js';
import { createStoreWriter } from '../../services/indexer/sink.js';
import { blockToRows } from '../../services/indexer/to-rows.js';
import { createProgressGate, runTraceStage } from '../../services/traces/stage.js';
import { deadLetter } from '../../shared/bus/dead-letter.js';
import { decodeTrace } from '../../shared/contracts/trace.js';
import { topicNames, topicSpecs } from '../../shared/contracts/topics.js';
import { loadConfig, tonflowConfigSchema, type TonflowConfig } from '../../shared/runtime/config.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { exportDevnet } from '../../shared/sources/devnet/export.js';
import { migrate } from '../../shared/store/migrate.js';
import { collect, waitFor } from '../helpers/bus-contract.js';
import { describeFixtures, fixturesDir } from '../helpers/fixtures.js';
import { type ExpectedTraces, expectStoredTraces, expectedTraces } from '../helpers/traces.js';

/*
 * The trace stage on real components: a block directory (the fixture blocks, and a devnet run on the real TVM with
 * traces spanning blocks and shards) → follower → in-process bus → decode stage and trace stage → chdb, composed
 * as `tonflow start` composes them. What they store is checked against traces worked out from the decoded blocks
 * by a graph walk (test/helpers/traces.ts), and the traces topic must carry every complete trace once.
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

function embeddedConfig(source: string): TonflowConfig {
  return loadConfig(tonflowConfigSchema, {
    env: {
      TONFLOW_MODE: 'embedded',
      TONFLOW_SOURCE: `files:${source}`,
      TONFLOW_DATA: path.join(work, `data-${randomBytes(3).toString('hex')}`),
      TONFLOW_CLICKHOUSE_DATABASE: `traces_${process.pid}_${randomBytes(3).toString('hex')}`,
      TONFLOW_TOPIC_PREFIX: `tonflow-traces-${randomBytes(3).toString('hex')}`,
    },
  });
}

async function runEmbedded(dir: string, want: ExpectedTraces): Promise<void> {
  const config = embeddedConfig(dir);
  const logger = createLogger({ service: 'traces-test', level: 'warn' });
  const store = await openStore(config, logger);
  const bus = openBus(config, logger, 'traces-test');
  const ac = new AbortController();
  try {
    await migrate(store);
    await bus.ensureTopics(topicSpecs(config));
    const topics = topicNames(config);
    const producer = await bus.producer();
    const checkpoints = createStoreCheckpoints(store, sourceName(config), { signal: ac.signal, logger });
    const published = collect(bus, { groupId: 'reader', topics: [topics.traces] });
    const gate = createProgressGate(null);
    let progress = -1;
    const poison: unknown[] = [];
    const traceConsumer = bus.consumer({ groupId: `${config.topicPrefix}.traces`, topics: [topics.mcBlocks] });
    const traces = runTraceStage({
      consumer: traceConsumer,
      store,
      producer,
      tracesTopic: topics.traces,
      logger,
      deadLetter: async (msg, error) => {
        poison.push(error);
        await deadLetter(producer, topics.mcBlocksDlq, msg, error);
      },
      onProgress: (mc) => {
        progress = Math.max(progress, mc);
        gate.reached(mc);
      },
    });
    traces.catch(() => {});
    const decodeConsumer = bus.consumer({ groupId: `${config.topicPrefix}.decode`, topics: [topics.rawBlocks] });
    const decode = runDecodeStage({
      consumer: decodeConsumer,
      toRows: blockToRows,
      write: createStoreWriter({ store, logger }),
      deadLetter: (msg, error) => deadLetter(producer, topics.rawBlocksDlq, msg, error),
      checkpoints: { save: (cp) => checkpoints.save(cp) },
    });
    decode.catch(() => {});
    const source = await openSource(config, logger, ac.signal);
    await follow({ source, producer, topic: topics.rawBlocks, mcTopic: topics.mcBlocks, checkpoints, saveAfterPublish: false, signal: ac.signal });
    await source.close();
    const last = Math.max(...want.mcSeqnos);
    await waitFor(() => progress >= last || poison.length > 0, 120_000, `traces of masterchain block ${last} stored`);
    expect(poison, 'masterchain-block messages dead-lettered').toEqual([]);
    const complete = [...want.traces.values()].filter((t) => t.state === 'complete');
    await waitFor(() => published.received.length >= complete.length, 30_000, 'complete traces published');
    await decodeConsumer.stop();
    await traceConsumer.stop();
    await Promise.all([decode, traces]);
    await published.consumer.stop();

    await expectStoredTraces(store, want);
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
    ac.abort();
    await bus.close();
    await store.command(`DROP DATABASE IF EXISTS \`${store.database}\``).catch(() => {});
    await store.close();
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
