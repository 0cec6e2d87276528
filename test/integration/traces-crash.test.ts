import { type ChildProcess, spawnSync } from 'node:child_process';
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
import { loadProgress } from '../../services/traces/stage.js';
import { deadLetter } from '../../shared/bus/dead-letter.js';
import { decodeTrace } from '../../shared/contracts/trace.js';
import { topicNames, topicSpecs } from '../../shared/contracts/topics.js';
import { loadConfig, tonflowConfigSchema, type TonflowConfig } from '../../shared/runtime/config.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { exportDevnet } from '../../shared/sources/devnet/export.js';
import { createStore } from '../../shared/store/client.js';
import type { Store } from '../../shared/store/store.js';
import { collect, waitFor } from '../helpers/bus-contract.js';
import { describeClickHouse } from '../helpers/clickhouse.js';
import { repoRoot } from '../helpers/fixtures.js';
import { exited, freePort, metric, reap, spawnNode, untilThenStop } from '../helpers/child.js';
import { describeKafka } from '../helpers/kafka.js';
import { CLI, caughtUp, ensureBuilt } from '../helpers/tonflow-cli.js';
import { type ExpectedTraces, expectStoredTraces, expectedTraces } from '../helpers/traces.js';

/*
 * Crash safety of the trace stage: its process is killed with SIGKILL in the middle of a devnet run's traces (with
 * messages in flight between masterchain blocks) and started again. Afterwards every trace is stored once, complete
 * exactly when a graph walk over the decoded blocks says so, no transaction has two trace ids, and the traces topic
 * carries every complete trace (at least once, identically).
 * - through Kafka: `tonflow traces` (the built CLI) against a ClickHouse server, the blocks decoded beforehand;
 * - on the in-process bus: `tonflow start` (embedded, chdb), whose bus dies with it: the follower publishes again
 *   from its checkpoint, which passes a masterchain block only once its traces are stored.
 */

/** TONFLOW_BATCH_MAX_ROWS of the killed process: parts of two or three of this run's masterchain blocks. */
const CRASH_BATCH_ROWS = 150;

let work = '';
let devnetDir = '';
let want: ExpectedTraces;

beforeAll(async () => {
  ensureBuilt();
  work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-traces-crash-'));
  devnetDir = path.join(work, 'devnet');
  // A low rate: many masterchain blocks, each with a few traces, so that a kill lands between two of them.
  await exportDevnet({ out: devnetDir, transactions: 500, tps: 25, seed: 'tonflow-traces-crash', genesisUtime: 1_760_000_000 });
  want = await expectedTraces(devnetDir);
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Waits until the gauge `metricName` (the last masterchain block traced) is past the first one, then kills the child with SIGKILL. */
async function killMidway(child: ChildProcess, port: number, metricName: string, stderr: string[]): Promise<number> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const n = await metric(port, metricName);
    if (n !== null && n > Math.min(...want.mcSeqnos)) {
      child.kill('SIGKILL');
      expect(await exited(child)).toEqual({ code: null, signal: 'SIGKILL' });
      return n;
    }
    if (child.exitCode !== null) throw new Error(`child exited early (${child.exitCode}):\n${stderr.join('')}`);
    if (Date.now() > deadline) throw new Error(`no progress within 90 s:\n${stderr.join('')}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function expectTracesOnTopic(config: TonflowConfig, label: string): Promise<void> {
  const bus = openBus(config, createLogger({ service: 'crash-test', level: 'silent' }), 'traces-crash-reader');
  try {
    const topics = topicNames(config);
    const complete = [...want.traces.values()].filter((t) => t.state === 'complete');
    const reader = collect(bus, { groupId: `reader-${randomBytes(3).toString('hex')}`, topics: [topics.traces] });
    await waitFor(() => new Set(reader.received.map((m) => m.key)).size >= complete.length, 60_000, `${label}: complete traces on the topic`);
    await reader.consumer.stop();
    const byId = new Map<string, string>();
    for (const m of reader.received) {
      const t = decodeTrace(m);
      const text = m.value.toString();
      // A replay publishes a trace again: identically.
      if (byId.has(t.trace_id)) expect(text, `${label}: trace ${t.trace_id} published twice, differently`).toBe(byId.get(t.trace_id));
      byId.set(t.trace_id, text);
      expect(t.transactions.map((x) => x.hash).sort()).toEqual([...want.traces.get(t.trace_id)!.txs].sort());
    }
    expect([...byId.keys()].sort()).toEqual(complete.map((t) => t.traceId).sort());
  } finally {
    await bus.close();
  }
}

describeKafka('trace stage crash safety (real Kafka)', (brokers) => {
  describeClickHouse('ClickHouse server', (url) => {
    it('`tonflow traces` killed with SIGKILL mid-trace and restarted: every trace once, no transaction with two trace ids', async () => {
      const config = loadConfig(tonflowConfigSchema, {
        env: {
          TONFLOW_MODE: 'distributed',
          TONFLOW_KAFKA_BROKERS: brokers.join(','),
          TONFLOW_CLICKHOUSE: url,
          TONFLOW_CLICKHOUSE_DATABASE: `traces_crash_${process.pid}_${randomBytes(3).toString('hex')}`,
          TONFLOW_TOPIC_PREFIX: `tonflow-traces-crash-${randomBytes(3).toString('hex')}`,
          TONFLOW_SOURCE: `files:${devnetDir}`,
          TONFLOW_DATA: path.join(work, 'unused'),
        },
      });
      const logger = createLogger({ service: 'crash-test', level: 'warn' });
      const store: Store = await openStore(config, logger);
      // A few masterchain blocks per write (about 65 rows each here): caught up on a stored chain, the stage would
      // otherwise write the whole run in one part, and the kill could not land between two parts of several blocks.
      const env = { ...process.env, TONFLOW_TOPIC_PREFIX: config.topicPrefix, TONFLOW_CLICKHOUSE_DATABASE: config.clickhouseDatabase, TONFLOW_LOG_LEVEL: 'warn', TONFLOW_BATCH_MAX_ROWS: String(CRASH_BATCH_ROWS) };
      try {
        const migrated = spawnSync(process.execPath, [CLI, 'migrate', '--clickhouse', url], { cwd: repoRoot, env, encoding: 'utf8', timeout: 120_000 });
        expect(migrated.status, migrated.stderr).toBe(0);
        // The blocks first: follower and decode stage in this process, until every block is stored.
        const bus = openBus(config, logger, 'traces-crash-pipeline');
        try {
          await bus.ensureTopics(topicSpecs(config));
          const topics = topicNames(config);
          const producer = await bus.producer();
          const ac = new AbortController();
          const checkpoints = createStoreCheckpoints(store, sourceName(config), { signal: ac.signal, logger });
          let blocks = 0;
          const consumer = bus.consumer({ groupId: `${config.topicPrefix}.decode`, topics: [topics.rawBlocks] });
          const decode = runDecodeStage({
            consumer,
            toRows: blockToRows,
            decodeWorkers: 0,
            write: createStoreWriter({ store, logger }),
            deadLetter: (msg, error) => deadLetter(producer, topics.rawBlocksDlq, msg, error),
            onBatch: (b) => (blocks += b.blocks),
          });
          decode.catch(() => {});
          const source = await openSource(config, logger, ac.signal);
          let published = 0;
          await follow({ source, producer, topic: topics.rawBlocks, mcTopic: topics.mcBlocks, checkpoints, saveAfterPublish: true, signal: ac.signal, onGroup: (g) => (published += g.blocks) });
          await source.close();
          await waitFor(() => blocks >= published, 120_000, 'every block stored');
          await consumer.stop();
          await decode;
        } finally {
          await bus.close();
        }

        const port = await freePort();
        const args = [CLI, 'traces', '--mode', 'distributed', '--kafka-brokers', brokers.join(','), '--clickhouse', url, '--ops-port', String(port)];
        const stderr: string[] = [];
        const start = (): ChildProcess => spawnNode(args, env, stderr);
        let child = start();
        try {
          const atKill = await killMidway(child, port, 'ton_traces_trace_progress_mc_seqno', stderr);
          const [p] = await store.query<{ p: number }>("SELECT max(mc_seqno) AS p FROM trace_progress WHERE stage = 'traces'");
          console.info(`killed after masterchain block ${atKill} was reported, progress ${p?.p} of ${Math.max(...want.mcSeqnos)}`);
          expect(Number(p?.p ?? 0)).toBeLessThan(Math.max(...want.mcSeqnos));
          child = start();
          const group = `${config.topicPrefix}.traces`;
          await untilThenStop(child, () => caughtUp(brokers, group, topicNames(config).mcBlocks), 120_000, 'restarted trace stage catching up', stderr);
        } finally {
          await reap(child);
        }
        await expectStoredTraces(store, want);
        await expectTracesOnTopic(config, 'kafka');
      } finally {
        await store.command(`DROP DATABASE IF EXISTS \`${store.database}\``).catch(() => {});
        await store.close();
      }
    }, 400_000);
  });
});

it('`tonflow start` (in-process bus, chdb) killed with SIGKILL mid-trace and restarted: every trace once, no transaction with two trace ids', async () => {
  const dataDir = path.join(work, 'start-data');
  const port = await freePort();
  const apiPort = await freePort();
  const args = [CLI, 'start', '--source', `files:${devnetDir}`, '--data', dataDir, '--port', String(apiPort), '--ops-port', String(port)];
  // A few masterchain blocks per trace-stage write, as in the test above.
  const env = { ...process.env, TONFLOW_LOG_LEVEL: 'warn', TONFLOW_LOG_FORMAT: 'json', TONFLOW_BATCH_MAX_ROWS: String(CRASH_BATCH_ROWS) };
  const stderr: string[] = [];
  const start = (): ChildProcess => spawnNode(args, env, stderr);
  const last = Math.max(...want.mcSeqnos);
  expect(want.mcSeqnos.length).toBeGreaterThan(10);
  let child = start();
  try {
    await killMidway(child, port, 'ton_tonflow_trace_progress_mc_seqno', stderr);
    // The data directory is free while the process is dead: the kill landed with traces still to assemble.
    const between = await createStore({ mode: 'embedded', dataDir, database: 'tonflow' });
    try {
      const p = await loadProgress(between);
      console.info(`tonflow start killed at trace progress ${p} of ${last}`);
      expect(p ?? 0).toBeLessThan(last);
    } finally {
      await between.close();
    }
    child = start();
    // Done when the trace stage has stored the last masterchain block (the gauge the stage keeps).
    await untilThenStop(child, async () => (await metric(port, 'ton_tonflow_trace_progress_mc_seqno')) === last, 180_000, 'restarted tonflow start tracing the last block', stderr);
  } finally {
    await reap(child);
  }
  const store = await createStore({ mode: 'embedded', dataDir, database: 'tonflow' });
  try {
    await expectStoredTraces(store, want);
  } finally {
    await store.close();
  }
}, 400_000);
