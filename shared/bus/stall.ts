/**
 * Liveness of one Kafka consumer, kept apart from `kafka.ts` so that it can be tested without a broker.
 *
 * kafkajs 2.x can stop consuming for good without crashing (kafkajs#267, #659): a member that rejoined after a broker
 * restart or a rebalance sits in its group and delivers nothing, either with no fetch in flight or fetching none of
 * its partitions, whose offsets it never initialised. Nothing fails, so nothing restarts it, and its partitions lag
 * forever. The adapter notes each sign of progress (the member joined its group, a batch entered or left the
 * handler) and, once there was none for `stallMs`, asks the broker whether the member's partitions have messages it
 * has not committed: if so, the member is stalled and is restarted; if not, it is merely idle.
 *
 * Time inside the handler is never a stall: a handler can rightly take long (a write riding out a store outage), and
 * kafkajs does not fetch while it runs. `stallMs` is chosen above the longest quiet time of a healthy member (a join
 * waiting out the rebalance timeout, then a fetch whose request times out), so a slow member is not taken for a
 * stalled one.
 */
export class StallWatch {
  private last: number;
  private inHandler = 0;

  constructor(
    private readonly stallMs: number,
    now: number,
  ) {
    if (!(stallMs > 0)) throw new RangeError(`stall timeout ${stallMs} ms: must be positive`);
    this.last = now;
  }

  /** The member made progress without a batch: it joined its group, or it was found to have nothing to fetch. */
  alive(now: number): void {
    this.last = now;
  }

  /** A batch entered the handler. */
  enter(now: number): void {
    this.inHandler++;
    this.last = now;
  }

  /** A batch left the handler; the next one is due from now. */
  leave(now: number): void {
    this.inHandler = Math.max(0, this.inHandler - 1);
    this.last = now;
  }

  /** How long the member has shown no progress, when that is long enough to ask (≥ `stallMs`, no batch in the handler). */
  stalledFor(now: number): number | undefined {
    if (this.inHandler > 0) return undefined;
    const idle = now - this.last;
    return idle >= this.stallMs ? idle : undefined;
  }
}

/**
 * The default stall timeout: above the longest quiet time of a live fetch loop (a join waiting out the rebalance
 * timeout, then a fetch long-poll whose request times out), plus a session timeout of slack.
 */
export function defaultStallMs(t: { requestTimeoutMs: number; maxWaitTimeMs: number; sessionTimeoutMs: number; rebalanceTimeoutMs: number }): number {
  return t.rebalanceTimeoutMs + t.requestTimeoutMs + t.maxWaitTimeMs + t.sessionTimeoutMs;
}

/** A partition's log end and low offsets, and the group's committed offset (negative: none), as the broker states them. */
export interface PartitionOffsets {
  topic: string;
  partition: number;
  high: bigint;
  low: bigint;
  committed: bigint;
}

/**
 * Whether any partition assigned to the member has messages the group has not committed. A partition with no committed
 * offset is read from its low offset (the adapter's consumers start from the beginning). No known assignment means the
 * member never finished joining: that is a stall too.
 */
export function hasBacklog(assigned: Readonly<Record<string, readonly number[]>> | undefined, offsets: readonly PartitionOffsets[]): boolean {
  if (assigned === undefined) return true;
  for (const o of offsets) {
    if (!assigned[o.topic]?.includes(o.partition)) continue;
    const from = o.committed < 0n ? o.low : o.committed;
    if (from < o.high) return true;
  }
  return false;
}
