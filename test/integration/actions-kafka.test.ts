import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { openBus, openStore } from '../../services/common/wiring.js';
import { decodeTraceActions } from '../../shared/contracts/actions.js';
import { topicNames, topicSpecs } from '../../shared/contracts/topics.js';
import { loadConfig, tonflowConfigSchema } from '../../shared/runtime/config.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { exportDevnet } from '../../shared/sources/devnet/export.js';
import type { TrafficRecord } from '../../shared/sources/devnet/traffic.js';
import type { Store } from '../../shared/store/store.js';
import { collect } from '../helpers/bus-contract.js';
import { describeClickHouse } from '../helpers/clickhouse.js';
import { checkJettonTransfers, checkNftTransfers, storedActions } from '../helpers/devnet-actions.js';
import { repoRoot } from '../helpers/fixtures.js';
import { describeKafka } from '../helpers/kafka.js';
import { patience } from '../helpers/patience.js';
import { CLI, type TonflowChild, caughtUp, ensureBuilt, exited, freePort, metric, spawnTonflow } from '../helpers/tonflow-cli.js';

/*
 * `tonflow actions` in Kafka mode, as an operator runs it: the built CLI's distributed processes (migrate, then
 * follower on a devnet run's block files, indexer, traces and actions, each its own process) on the real broker and
 * the ClickHouse server. The actions must land in the `actions` table and on `<prefix>.actions`, one message per
 * complete trace with the stored actions' ids, and the devnet's jetton and NFT transfers must be classified as the
 * traffic generator's record says they were sent.
 */

/** Polls `cond` until true; fails naming `what` after {@link patience} of `ms`, or at once when a child has exited. */
async function until(cond: () => Promise<boolean>, ms: number, what: string, children: readonly TonflowChild[]): Promise<void> {
  const deadline = Date.now() + patience(ms);
  for (;;) {
    if (await cond()) return;
    const dead = children.find((c) => c.child.exitCode !== null || c.child.signalCode !== null);
    if (dead) throw new Error(`${what}: tonflow ${dead.child.spawnargs.slice(2, 3).join(' ')} exited (${dead.child.exitCode ?? dead.child.signalCode}):\n${dead.stderr.join('')}`);
    if (Date.now() > deadline) throw new Error(`${what}: not within ${patience(ms)} ms:\n${children.map((c) => c.stderr.join('')).join('\n')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describeKafka('action stage on Kafka (real broker)', (brokers) => {
  describeClickHouse('ClickHouse server', (url) => {
    it('`tonflow follower | indexer | traces | actions`: every complete trace classified once, into `actions` and onto <prefix>.actions', async () => {
      ensureBuilt();
      const work = mkdtempSync(path.join(os.tmpdir(), 'tonflow-actions-kafka-'));
      const devnetDir = path.join(work, 'devnet');
      const records: TrafficRecord[] = [];
      const { lastMcSeqno } = await exportDevnet({ out: devnetDir, transactions: 300, tps: 30, seed: 'tonflow-actions-kafka', genesisUtime: 1_760_000_000, record: (r) => records.push(r) });
      const config = loadConfig(tonflowConfigSchema, {
        env: {
          TONFLOW_MODE: 'distributed',
          TONFLOW_KAFKA_BROKERS: brokers.join(','),
          TONFLOW_CLICKHOUSE: url,
          TONFLOW_CLICKHOUSE_DATABASE: `actions_kafka_${process.pid}_${randomBytes(3).toString('hex')}`,
          TONFLOW_TOPIC_PREFIX: `tonflow-actions-kafka-${randomBytes(3).toString('hex')}`,
          TONFLOW_DATA: path.join(work, 'data'),
        },
      });
      const topics = topicNames(config);
      const logger = createLogger({ service: 'actions-kafka-test', level: 'warn' });
      const store: Store = await openStore(config, logger);
      const bus = openBus(config, logger, 'actions-kafka-reader');
      const env = { ...process.env, TONFLOW_TOPIC_PREFIX: config.topicPrefix, TONFLOW_CLICKHOUSE_DATABASE: config.clickhouseDatabase, TONFLOW_LOG_LEVEL: 'warn' };
      const children: TonflowChild[] = [];
      try {
        const migrated = spawnSync(process.execPath, [CLI, 'migrate', '--clickhouse', url], { cwd: repoRoot, env, encoding: 'utf8', timeout: patience(120_000) });
        expect(migrated.status, migrated.stderr).toBe(0);
        await bus.ensureTopics(topicSpecs(config));
        const reader = collect(bus, { groupId: `reader-${randomBytes(3).toString('hex')}`, topics: [topics.actions] });

        const common = ['--mode', 'distributed', '--kafka-brokers', brokers.join(','), '--clickhouse', url, '--data', path.join(work, 'data')];
        const ports = { follower: await freePort(), indexer: await freePort(), traces: await freePort(), actions: await freePort() };
        for (const role of ['actions', 'traces', 'indexer'] as const) children.push(spawnTonflow([role, ...common, '--ops-port', String(ports[role])], env));
        children.push(spawnTonflow(['follower', ...common, '--source', `files:${devnetDir}`, '--ops-port', String(ports.follower)], env));

        // Every masterchain block's traces stored and published (the trace stage's gauge), then every trace classified:
        // the action stage's group has committed the whole traces topic, which it does only after publishing.
        await until(async () => ((await metric(ports.traces, 'ton_traces_trace_progress_mc_seqno')) ?? -1) >= lastMcSeqno, 240_000, 'traces of the last masterchain block', children);
        await until(() => caughtUp(brokers, `${config.topicPrefix}.actions`, topics.traces), 120_000, 'action stage caught up with the traces topic', children);
        const [complete] = await store.query<{ n: string }>("SELECT count() AS n FROM traces FINAL WHERE state = 'complete'");
        const completeTraces = Number(complete?.n ?? 0);
        expect(completeTraces).toBeGreaterThan(20);
        await until(async () => new Set(reader.received.map((m) => m.key)).size >= completeTraces, 60_000, 'actions of every complete trace on the topic', children);
        await reader.consumer.stop();

        for (const c of children) c.child.kill('SIGTERM');
        for (const c of children) expect(await exited(c.child), c.stderr.join('')).toEqual({ code: 0, signal: null });

        // The topic: one message per complete trace (a replay repeats one identically), the same top-level action ids as the table.
        const published = new Map<string, { text: string; actionIds: Set<string> }>();
        for (const m of reader.received) {
          const t = decodeTraceActions(m);
          const text = m.value.toString();
          const seen = published.get(t.trace_id);
          if (seen) expect(text, `trace ${t.trace_id} published twice, differently`).toBe(seen.text);
          published.set(t.trace_id, { text, actionIds: new Set(t.actions.filter((a) => a['parent_action_id'] === null).map((a) => a.action_id)) });
        }
        const completeIds = await store.query<{ trace_id: string }>("SELECT trace_id FROM traces FINAL WHERE state = 'complete'");
        expect([...published.keys()].sort()).toEqual(completeIds.map((r) => r.trace_id).sort());
        const actions = await storedActions(store);
        const storedIds = new Map<string, Set<string>>();
        for (const a of actions) storedIds.set(a.trace_id, (storedIds.get(a.trace_id) ?? new Set()).add(a.action_id));
        for (const [traceId, p] of published) expect(storedIds.get(traceId) ?? new Set(), `actions of trace ${traceId}`).toEqual(p.actionIds);
        expect(actions.length).toBeGreaterThanOrEqual(published.size);

        // What was classified, against what the devnet sent.
        const jettons = checkJettonTransfers(records, actions, lastMcSeqno);
        expect(jettons.checked, `jetton transfers classified (of ${jettons.sent} sent)`).toBeGreaterThan(0);
        expect(jettons.due, 'jetton transfers sent early enough to complete').toBeGreaterThan(0);
        expect(jettons.dueUnclassified, 'jetton transfers sent early enough to complete, not classified').toEqual([]);
        const nfts = checkNftTransfers(records, actions);
        expect(nfts.checked, `NFT transfers classified (of ${nfts.sent} sent)`).toBeGreaterThan(0);
      } finally {
        for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
        await Promise.all(children.map((c) => exited(c.child)));
        await bus.close();
        await store.command(`DROP DATABASE IF EXISTS \`${store.database}\``).catch(() => {});
        await store.close();
        rmSync(work, { recursive: true, force: true });
      }
    }, 900_000);
  });
});
