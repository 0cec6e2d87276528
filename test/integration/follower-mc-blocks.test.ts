import { createHash } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { follow } from '../../services/follower/follow.js';
import type { Bus, OutgoingMessage, Producer } from '../../shared/bus/bus.js';
import { createMemoryBus } from '../../shared/bus/memory.js';
import { type McBlockMessage, decodeMcBlock } from '../../shared/contracts/mc-block.js';
import { decodeRawBlock } from '../../shared/contracts/raw-block.js';
import { topicNames, topicSpecs } from '../../shared/contracts/topics.js';
import type { BlockGroup, BlockSource, RawBlock } from '../../shared/sources/source.js';
import { collect, waitFor } from '../helpers/bus-contract.js';
import { describeFixtures, readFixture } from '../helpers/fixtures.js';
import { createTestKafkaBus, describeKafka, uniqueTopic } from '../helpers/kafka.js';

/*
 * The follower's masterchain-block message (shared/contracts/mc-block.ts) on both bus adapters: one per group that
 * ends in its masterchain block, sent only after the bus acknowledged every block of the group, listing those
 * blocks with the hashes the raw-block messages carry; none for a group without a masterchain block (a files
 * source's orphan shard blocks). The follower does not read block bytes, so the groups are built from real fixture
 * BOCs under made-up ids; the hashes are the BOCs' own sha256, so each listed block is told apart.
 */

function block(file: string, workchain: number, shard: string, seqno: number, mcSeqno: number | null): RawBlock {
  const data = readFixture(`blocks/${file}`);
  const h = (salt: string): Uint8Array => createHash('sha256').update(salt).update(data).update(`${workchain}:${shard}:${seqno}`).digest();
  return { id: { workchain, shard, seqno }, rootHash: h('root'), fileHash: h('file'), data, mcSeqno };
}

function groups(): BlockGroup[] {
  const shard = 'mainnet_0_8000000000000000_34703989_nft.boc';
  const mc = 'mainnet_-1_8000000000000000_17734191.boc';
  return [
    { mcSeqno: 100, blocks: [block(shard, 0, '4000000000000000', 7, 100), block(shard, 0, 'C000000000000000', 9, 100), block(mc, -1, '8000000000000000', 100, 100)], checkpoint: 'g1' },
    { mcSeqno: null, blocks: [block(shard, 0, '8000000000000000', 3, null)], checkpoint: 'g2' },
    { mcSeqno: 101, blocks: [block(mc, -1, '8000000000000000', 101, 101)], checkpoint: 'g3' },
    { mcSeqno: 102, blocks: [block(shard, 0, '4000000000000000', 8, 102), block(mc, -1, '8000000000000000', 102, 102)], checkpoint: 'g4' },
  ];
}

function sourceOf(list: BlockGroup[]): BlockSource {
  return {
    async *groups() {
      for (const g of list) yield g;
    },
    close: async () => {},
  };
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

async function scenario(bus: Bus, prefix: string, timeoutMs: number): Promise<void> {
  const config = { topicPrefix: prefix, mode: 'distributed' as const, partitions: 2 };
  const topics = topicNames(config);
  await bus.ensureTopics(topicSpecs(config));
  const real = await bus.producer();
  // Every send's start and acknowledgement, in order.
  const events: string[] = [];
  const producer: Producer = {
    async send(topic: string, messages: OutgoingMessage[]) {
      const what = topic === topics.mcBlocks ? `mc ${messages[0]!.headers!['x-mc-seqno']}` : `raw ${messages.map((m) => m.headers!['x-block-id']).join(' ')}`;
      events.push(`send ${what}`);
      await real.send(topic, messages);
      events.push(`acked ${what}`);
    },
  };
  const saved: string[] = [];
  const list = groups();
  await follow({
    source: sourceOf(list),
    producer,
    topic: topics.rawBlocks,
    mcTopic: topics.mcBlocks,
    checkpoints: { load: async () => null, save: async (c) => void saved.push(c) },
    saveAfterPublish: true,
    checkpointIntervalMs: 0,
    signal: new AbortController().signal,
  });
  expect(saved.at(-1)).toBe('g4');
  // The masterchain-block message goes out only once its group's blocks are acknowledged, and before the next group.
  expect(events).toEqual([
    'send raw 0:4000000000000000:7 0:C000000000000000:9 -1:8000000000000000:100',
    'acked raw 0:4000000000000000:7 0:C000000000000000:9 -1:8000000000000000:100',
    'send mc 100',
    'acked mc 100',
    'send raw 0:8000000000000000:3',
    'acked raw 0:8000000000000000:3',
    'send raw -1:8000000000000000:101',
    'acked raw -1:8000000000000000:101',
    'send mc 101',
    'acked mc 101',
    'send raw 0:4000000000000000:8 -1:8000000000000000:102',
    'acked raw 0:4000000000000000:8 -1:8000000000000000:102',
    'send mc 102',
    'acked mc 102',
  ]);

  const mcs = collect(bus, { groupId: uniqueTopic('mc-group'), topics: [topics.mcBlocks] });
  const raws = collect(bus, { groupId: uniqueTopic('raw-group'), topics: [topics.rawBlocks] });
  onTestFinished(async () => {
    await mcs.consumer.stop();
    await raws.consumer.stop();
  });
  await waitFor(() => mcs.received.length >= 3 && raws.received.length >= 7, timeoutMs, 'the follower’s messages');
  const got: McBlockMessage[] = mcs.received.map((m) => decodeMcBlock(m));
  expect(got.map((m) => m.block.seqno)).toEqual([100, 101, 102]);
  const byId = new Map(raws.received.map((m) => decodeRawBlock(m).block).map((b) => [`${b.id.workchain}:${b.id.shard}:${b.id.seqno}`, b]));
  for (const [i, m] of got.entries()) {
    const group = list.filter((g) => g.mcSeqno !== null)[i]!;
    const expected = group.blocks.map((b) => ({ workchain: b.id.workchain, shard: b.id.shard, seqno: b.id.seqno, rootHash: hex(b.rootHash), fileHash: hex(b.fileHash) }));
    expect([...m.shardBlocks, m.block]).toEqual(expected);
    // Each listed block is on the raw-block topic under the same hashes.
    for (const ref of [...m.shardBlocks, m.block]) {
      const raw = byId.get(`${ref.workchain}:${ref.shard}:${ref.seqno}`);
      expect(raw, `${ref.workchain}:${ref.shard}:${ref.seqno}`).toBeDefined();
      expect(hex(raw!.rootHash)).toBe(ref.rootHash);
      expect(hex(raw!.fileHash)).toBe(ref.fileHash);
    }
  }
}

describeFixtures('follower: masterchain-block messages on the in-process bus', () => {
  it('publishes one per masterchain block after its blocks, listing them, and none for a group without one', async () => {
    const bus = createMemoryBus({});
    onTestFinished(() => bus.close());
    await scenario(bus, 'mem', 5_000);
  });
});

describeKafka('follower: masterchain-block messages through Kafka', (brokers) => {
  it('publishes one per masterchain block after its blocks, listing them, and none for a group without one', async () => {
    const bus = createTestKafkaBus(brokers);
    onTestFinished(() => bus.close());
    await scenario(bus, uniqueTopic('mcblocks'), 60_000);
  }, 120_000);
});

describe('masterchain-block contract', () => {
  it('refuses another schema version and malformed values as poison (non-retryable)', () => {
    const value = Buffer.from(JSON.stringify({ mc: { workchain: -1, shard: '8000000000000000', seqno: 1, rootHash: 'a'.repeat(64), fileHash: 'b'.repeat(64) }, shards: [] }));
    expect(decodeMcBlock({ headers: { 'x-schema-version': '1' }, value }).block.seqno).toBe(1);
    for (const [headers, v] of [
      [{ 'x-schema-version': '2' }, value],
      [{ 'x-schema-version': '1' }, Buffer.from('not json')],
      [{ 'x-schema-version': '1' }, Buffer.from(JSON.stringify({ mc: { workchain: 0, shard: '8000000000000000', seqno: 1, rootHash: 'a'.repeat(64), fileHash: 'b'.repeat(64) }, shards: [] }))],
      [{ 'x-schema-version': '1' }, Buffer.from(JSON.stringify({ mc: { workchain: -1, shard: '8000000000000000', seqno: 1, rootHash: 'xyz', fileHash: 'b'.repeat(64) }, shards: [] }))],
    ] as const) {
      let err: unknown;
      try {
        decodeMcBlock({ headers, value: v });
      } catch (e) {
        err = e;
      }
      expect((err as { retryable?: boolean } | undefined)?.retryable, JSON.stringify(headers) + v.toString()).toBe(false);
    }
  });
});
