import type { Producer } from '../../shared/bus/bus.js';
import { encodeAccountStates } from '../../shared/contracts/account-states.js';
import { encodeMcBlock, mcBlockMessageOf } from '../../shared/contracts/mc-block.js';
import { rejectedMessage } from '../../shared/bus/dead-letter.js';
import { encodeRawBlock } from '../../shared/contracts/raw-block.js';
import { NonRetryableError } from '../../shared/runtime/errors.js';
import type { BlockGroup, BlockSource } from '../../shared/sources/source.js';

/** Where the follower resumes. */
export interface CheckpointStore {
  load(): Promise<string | null>;
  save(checkpoint: string): Promise<void>;
}

export interface FollowerDeps {
  source: BlockSource;
  producer: Producer;
  /** The raw-block topic (raw-block.ts). */
  topic: string;
  /** The masterchain-block topic (mc-block.ts): one message per masterchain block, after the group's blocks. */
  mcTopic: string;
  /**
   * Where blocks the source rejected (failed verification: shared/sources/verify.ts) go, with their reason, before
   * the group's own blocks are published. A source that rejects a block with no such topic configured stops the
   * follower: a rejected block is never dropped silently.
   */
  dlqTopic?: string;
  checkpoints: CheckpointStore;
  /**
   * Save the checkpoint here after each published group (Kafka mode: the broker keeps what was acknowledged).
   * With a bus that keeps nothing across a restart (embedded mode) the decode stage saves it instead, once the
   * group's last block is stored, so the follower never skips past blocks that were lost with the process.
   */
  saveAfterPublish: boolean;
  /**
   * Least time between two checkpoint saves of the follower itself (default 1000 ms): the newest published group's
   * checkpoint is saved then, and always when the loop ends. A restart may so publish up to that much again, which
   * the idempotent tables absorb; saving after every group would hold each publish up behind a store round trip.
   */
  checkpointIntervalMs?: number;
  signal: AbortSignal;
  onGroup?: (info: { mcSeqno: number | null; blocks: number; bytes: number; rejected: number }) => void;
}

/**
 * The follower loop: each source group is published in order (shard blocks, then their masterchain block), the
 * last message of a group carrying the group's checkpoint, and the next group starts only once the bus has
 * acknowledged this one. Once the bus has a group that ends in its masterchain block, the masterchain-block
 * message follows on its own topic: a stage reading that topic knows every block the message lists is published.
 * A crash between the two publishes the group again after the restart (its checkpoint was not saved), then the
 * message: delivery stays at-least-once, never a message before its blocks.
 */
export async function follow(deps: FollowerDeps): Promise<void> {
  const start = await deps.checkpoints.load();
  const interval = deps.checkpointIntervalMs ?? 1000;
  // The newest checkpoint whose group is published (or empty) but not saved yet.
  let unsaved: string | null = null;
  let savedAt = -Infinity;
  const save = async (): Promise<void> => {
    const checkpoint = unsaved;
    if (checkpoint === null) return;
    await deps.checkpoints.save(checkpoint);
    if (unsaved === checkpoint) unsaved = null;
    savedAt = performance.now();
  };
  try {
    for await (const group of deps.source.groups(start, deps.signal)) {
      if (group.rejected && group.rejected.length > 0) await publishRejected(deps, group.rejected);
      const last = group.blocks.length - 1;
      const messages = group.blocks.map((b, i) => encodeRawBlock(b, i === last ? group.checkpoint : null));
      // A state snapshot goes ahead of the group's blocks, in the same send: the checkpoint (on the last block) is
      // saved only once the store has the states too.
      const states = group.states ? encodeAccountStates(group.states) : [];
      if (states.length + messages.length > 0) await deps.producer.send(deps.topic, [...states, ...messages]);
      const mc = mcBlockMessageOf(group.blocks);
      if (mc !== null) await deps.producer.send(deps.mcTopic, [encodeMcBlock(mc)]);
      if (deps.saveAfterPublish || messages.length === 0) {
        unsaved = group.checkpoint;
        if (performance.now() - savedAt >= interval) await save();
      }
      deps.onGroup?.({
        mcSeqno: group.mcSeqno,
        blocks: messages.length,
        bytes: messages.reduce((n, m) => n + m.value.length, 0),
        rejected: group.rejected?.length ?? 0,
      });
      if (deps.signal.aborted) break;
    }
  } catch (e) {
    // What was published stays published: keep its checkpoint if the store lets us, and report the failure.
    await save().catch(() => {});
    throw e;
  }
  await save();
}

async function publishRejected(deps: FollowerDeps, rejected: NonNullable<BlockGroup['rejected']>): Promise<void> {
  if (deps.dlqTopic === undefined) {
    throw new NonRetryableError('NO_DEAD_LETTER_TOPIC', `the source rejected ${rejected.length} block(s) (${rejected[0]!.error.message}) and the follower has no dead-letter topic`);
  }
  await deps.producer.send(
    deps.dlqTopic,
    rejected.map((r) => rejectedMessage(encodeRawBlock(r.block, null), r.error)),
  );
}
