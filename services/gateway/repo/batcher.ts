import type { Req } from './db.js';

/**
 * Point reads of concurrent requests merged into one statement (the DataLoader pattern, without its timer).
 *
 * Why: embedded ClickHouse runs one statement at a time for the whole process, and a point read costs about the
 * same for one key as for a few dozen (a statement's fixed cost and each column's granule dominate; bench/RESULTS.md,
 * design measurements). So a request that arrives while a read of its kind is running waits for that read, as it would
 * in the engine's queue anyway, and then shares the next statement with every request that arrived meanwhile.
 * A request that finds nothing running starts at once: a lone request waits for nothing.
 *
 * Requests only share a statement when they share a deadline (X-Timeout), so that no request's read runs under
 * another's deadline. A statement's failure is every sharer's failure, as if each had run it.
 */

export type BatchLoad<V> = (keys: string[], req: Req) => Promise<ReadonlyMap<string, V>>;

interface Waiter<V> {
  keys: readonly string[];
  resolve: (found: Map<string, V>) => void;
  reject: (err: unknown) => void;
}

interface Batch<V> {
  keys: Set<string>;
  waiters: Array<Waiter<V>>;
}

/** The batches of one deadline: those running and those filling up behind them. */
interface Lane<V> {
  running: number;
  queued: Array<Batch<V>>;
}

export interface BatcherOptions {
  /** Keys per statement: a request joins a queued batch while the union stays within this (one request may exceed it). */
  maxKeys: number;
  /** Statements of this kind running at once: 1 when the store runs one at a time anyway (embedded). */
  inFlight: number;
}

export class KeyBatcher<V> {
  private readonly lanes = new Map<number, Lane<V>>();

  constructor(
    private readonly load: BatchLoad<V>,
    private readonly opts: BatcherOptions,
  ) {}

  /** The values of `keys` that the store holds (a key it does not hold is absent from the map). */
  get(keys: Iterable<string>, req: Req): Promise<Map<string, V>> {
    const wanted = [...new Set(keys)];
    if (wanted.length === 0) return Promise.resolve(new Map());
    let lane = this.lanes.get(req.timeoutMs);
    if (!lane) this.lanes.set(req.timeoutMs, (lane = { running: 0, queued: [] }));
    return new Promise<Map<string, V>>((resolve, reject) => {
      const waiter: Waiter<V> = { keys: wanted, resolve, reject };
      const last = lane.queued[lane.queued.length - 1];
      if (last && union(last.keys, wanted) <= this.opts.maxKeys) {
        for (const k of wanted) last.keys.add(k);
        last.waiters.push(waiter);
      } else {
        lane.queued.push({ keys: new Set(wanted), waiters: [waiter] });
      }
      this.pump(req, lane);
    });
  }

  private pump(req: Req, lane: Lane<V>): void {
    while (lane.running < this.opts.inFlight && lane.queued.length > 0) {
      const batch = lane.queued.shift()!;
      lane.running++;
      const done = (): void => {
        lane.running--;
        if (lane.running === 0 && lane.queued.length === 0) this.lanes.delete(req.timeoutMs);
        else this.pump(req, lane);
      };
      // The load is called synchronously here, so every statement of a batch is queued in the store before any
      // later request's.
      let loading: Promise<ReadonlyMap<string, V>>;
      try {
        loading = this.load([...batch.keys], req);
      } catch (err) {
        loading = Promise.reject(err);
      }
      loading.then(
        (found) => {
          done();
          for (const w of batch.waiters) {
            const mine = new Map<string, V>();
            for (const k of w.keys) {
              const v = found.get(k);
              if (v !== undefined) mine.set(k, v);
            }
            w.resolve(mine);
          }
        },
        (err: unknown) => {
          done();
          for (const w of batch.waiters) w.reject(err);
        },
      );
    }
  }
}

function union(have: ReadonlySet<string>, add: readonly string[]): number {
  let n = have.size;
  for (const k of add) if (!have.has(k)) n++;
  return n;
}
