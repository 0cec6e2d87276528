import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TraceActionsJson } from '../../shared/contracts/actions.js';
import { runActionStage } from '../../services/actions/stage.js';
import { openBus, openSource, openStore, sourceName } from '../../services/common/wiring.js';
import { createStoreCheckpoints } from '../../services/follower/checkpoints.js';
import { follow } from '../../services/follower/follow.js';
import { runDecodeStage } from '../../services/indexer/decode.js';
import { createStoreWriter } from '../../services/indexer/sink.js';
import { blockToRows } from '../../services/indexer/to-rows.js';
import { runTraceStage } from '../../services/traces/stage.js';
import { deadLetter } from '../../shared/bus/dead-letter.js';
import { decodeTraceActions } from '../../shared/contracts/actions.js';
import { decodeTrace } from '../../shared/contracts/trace.js';
import { topicNames, topicSpecs } from '../../shared/contracts/topics.js';
import { loadConfig, tonflowConfigSchema } from '../../shared/runtime/config.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { exportDevnet } from '../../shared/sources/devnet/export.js';
import type { TrafficRecord } from '../../shared/sources/devnet/traffic.js';
import { migrate } from '../../shared/store/migrate.js';
import { collect, waitFor } from '../helpers/bus-contract.js';
import { type StoredAction, checkBouncedTransfers, checkJettonTransfers, checkNftTransfers, storedActions } from '../helpers/devnet-actions.js';

/*
 * The action stage on real components: a devnet run on the real TVM → follower → in-process bus → decode, trace and
 * action stages → chdb, composed as `tonflow start` composes them. The actions stored are checked against what the
 * devnet's traffic generator says it sent (its record: owners, amounts, jetton masters, NFT items), not against
 * anything the classifier produced.
 */

let work = '';
let devnetDir = '';
const records: TrafficRecord[] = [];
let lastMcSeqno = 0;

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-actions-'));
  devnetDir = path.join(work, 'devnet');
  ({ lastMcSeqno } = await exportDevnet({ out: devnetDir, transactions: 600, tps: 150, seed: 'tonflow-actions-test', genesisUtime: 1_760_000_000, record: (r) => records.push(r) }));
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

let actions: StoredAction[] = [];
let byTrace = new Map<string, StoredAction[]>();
let published: TraceActionsJson[] = [];
let tracesPublished = new Set<string>();

beforeAll(async () => {
  const config = loadConfig(tonflowConfigSchema, {
    env: {
      TONFLOW_MODE: 'embedded',
      TONFLOW_SOURCE: `files:${devnetDir}`,
      TONFLOW_DATA: path.join(work, `data-${randomBytes(3).toString('hex')}`),
      TONFLOW_CLICKHOUSE_DATABASE: `actions_${process.pid}_${randomBytes(3).toString('hex')}`,
      TONFLOW_TOPIC_PREFIX: `tonflow-actions-${randomBytes(3).toString('hex')}`,
    },
  });
  const logger = createLogger({ service: 'actions-test', level: 'warn' });
  const store = await openStore(config, logger);
  const bus = openBus(config, logger, 'actions-test');
  const ac = new AbortController();
  try {
    await migrate(store);
    await bus.ensureTopics(topicSpecs(config));
    const topics = topicNames(config);
    const producer = await bus.producer();
    const checkpoints = createStoreCheckpoints(store, sourceName(config), { signal: ac.signal, logger });
    const tracesOut = collect(bus, { groupId: 'reader-traces', topics: [topics.traces] });
    const actionsOut = collect(bus, { groupId: 'reader-actions', topics: [topics.actions] });
    const poison: unknown[] = [];
    const dead = (topic: string) => async (msg: Parameters<typeof deadLetter>[2], error: unknown): Promise<void> => {
      poison.push(error);
      await deadLetter(producer, topic, msg, error);
    };
    let progress = -1;
    const actionConsumer = bus.consumer({ groupId: `${config.topicPrefix}.actions`, topics: [topics.traces] });
    const actionStage = runActionStage({ consumer: actionConsumer, store, producer, actionsTopic: topics.actions, logger, deadLetter: dead(topics.tracesDlq) });
    actionStage.catch(() => {});
    const traceConsumer = bus.consumer({ groupId: `${config.topicPrefix}.traces`, topics: [topics.mcBlocks] });
    const traceStage = runTraceStage({
      consumer: traceConsumer,
      store,
      producer,
      tracesTopic: topics.traces,
      logger,
      deadLetter: dead(topics.mcBlocksDlq),
      onProgress: (mc) => void (progress = Math.max(progress, mc)),
    });
    traceStage.catch(() => {});
    const decodeConsumer = bus.consumer({ groupId: `${config.topicPrefix}.decode`, topics: [topics.rawBlocks] });
    const decode = runDecodeStage({
      consumer: decodeConsumer,
      toRows: blockToRows,
      write: createStoreWriter({ store, logger }),
      deadLetter: dead(topics.rawBlocksDlq),
      checkpoints: { save: (cp) => checkpoints.save(cp) },
    });
    decode.catch(() => {});
    const source = await openSource(config, logger, ac.signal);
    await follow({ source, producer, topic: topics.rawBlocks, mcTopic: topics.mcBlocks, checkpoints, saveAfterPublish: false, signal: ac.signal });
    await source.close();
    await waitFor(() => progress >= lastMcSeqno || poison.length > 0, 180_000, 'traces of the last masterchain block stored');
    const [complete] = await store.query<{ n: string }>("SELECT count() AS n FROM traces FINAL WHERE state = 'complete'");
    const completeTraces = Number(complete?.n ?? 0);
    expect(completeTraces).toBeGreaterThan(0);
    await waitFor(() => tracesOut.received.length >= completeTraces, 120_000, 'complete traces published');
    // Every published trace gets its actions published, once each trace's rows are stored.
    await waitFor(() => actionsOut.received.length >= completeTraces || poison.length > 0, 120_000, 'actions of every trace published');
    expect(poison, 'messages dead-lettered').toEqual([]);
    await decodeConsumer.stop();
    await traceConsumer.stop();
    await actionConsumer.stop();
    await Promise.all([decode, traceStage, actionStage]);
    await tracesOut.consumer.stop();
    await actionsOut.consumer.stop();

    tracesPublished = new Set(tracesOut.received.map((m) => decodeTrace(m).trace_id));
    published = actionsOut.received.map((m) => decodeTraceActions(m));
    actions = await storedActions(store);
    byTrace = new Map();
    for (const a of actions) byTrace.set(a.trace_id, [...(byTrace.get(a.trace_id) ?? []), a]);
  } finally {
    ac.abort();
    await bus.close();
    await store.command(`DROP DATABASE IF EXISTS \`${store.database}\``).catch(() => {});
    await store.close();
  }
}, 600_000);

it('classifies every published trace: its actions stored and published once, the same ids in both', () => {
  expect(tracesPublished.size).toBeGreaterThan(50);
  expect(published.map((p) => p.trace_id).sort()).toEqual([...tracesPublished].sort());
  for (const p of published) {
    expect(new Set((byTrace.get(p.trace_id) ?? []).map((a) => a.action_id))).toEqual(new Set(p.actions.filter((a) => a['parent_action_id'] === null).map((a) => a.action_id)));
  }
});

// The jetton wallets' and NFT items' facts (owner, master, collection) come from their data cells, which a block's
// state update mostly prunes: the action stage rebuilds them from the cell store (services/actions/read.ts).
it('a jetton transfer (its trace over three or more masterchain blocks) is one jetton_transfer with the sent owners, amount and master', () => {
  const { sent, checked, multiBlock, due, dueUnclassified } = checkJettonTransfers(records, actions, lastMcSeqno);
  expect(checked, `jetton transfers classified (of ${sent} sent)`).toBeGreaterThan(0);
  // Every transfer whose trace had the blocks to complete before the run ended is classified.
  expect(due, 'jetton transfers sent early enough to complete').toBeGreaterThan(0);
  expect(dueUnclassified, 'jetton transfers sent early enough to complete, not classified').toEqual([]);
  expect(multiBlock, 'jetton transfers whose trace spans three or more masterchain blocks').toBeGreaterThan(0);
});

it('a bounced TON transfer is one failed ton_transfer from the sender to the destination', () => {
  const { sent, checked } = checkBouncedTransfers(records, actions);
  expect(checked, `bounced transfers classified (of ${sent} sent)`).toBeGreaterThan(0);
});

it('an NFT transfer is one nft_transfer of the item from its owner to the new owner', () => {
  const { sent, checked } = checkNftTransfers(records, actions);
  expect(checked, `NFT transfers classified (of ${sent} sent)`).toBeGreaterThan(0);
});
