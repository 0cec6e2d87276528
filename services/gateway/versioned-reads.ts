import { Lru } from '../../shared/runtime/lru.js';

/**
 * Store reads shared while the store is unchanged: the same rule as whole responses (response-cache.ts), for the
 * reads that requests outside the response cache make over and over — the masterchain head every v2 read and every
 * get-method starts from, the account states get-methods run on (POST requests, which the response cache never
 * holds).
 *
 * `version()` is the response cache's: a number that moves whenever the store's content may have (null while it is
 * unknown, or with the response cache off). A value read while the version is `v` serves every request that starts
 * while it is still `v`, exactly as an answer computed at `v` would; once it moves, everything read before is
 * dropped. With the version unknown nothing is kept, and a request only ever joins a read that started after it
 * arrived (so it never sees the store as it was before it came), which still merges the reads of a burst into two
 * at a time.
 */
export interface VersionedReads<V> {
  get(key: string, load: () => Promise<V>): Promise<V>;
}

export interface VersionedReadsOptions<V> {
  /** Values kept for the current version. */
  entries: number;
  /** Weight of a value (its size), counted against `maxWeight`. */
  weigh?: (value: V) => number;
  maxWeight?: number;
}

export function createVersionedReads<V>(version: () => number | null, opts: VersionedReadsOptions<V>): VersionedReads<V> {
  let generation: number | null = null;
  const kept = new Lru<string, V>(opts.entries, 0, Date.now, opts.weigh, opts.maxWeight);
  /** Reads under way at `generation`, shared by the requests that start meanwhile. */
  const reading = new Map<string, Promise<V>>();
  /** Without a version: the read under way per key, and the one queued behind it. */
  const running = new Map<string, Promise<V>>();
  const queued = new Map<string, Promise<V>>();

  const fresh = (key: string, load: () => Promise<V>): Promise<V> => {
    const start = (): Promise<V> => {
      const p = load();
      running.set(key, p);
      const done = (): void => {
        if (running.get(key) === p) running.delete(key);
      };
      p.then(done, done);
      return p;
    };
    const current = running.get(key);
    if (!current) return start();
    let next = queued.get(key);
    if (!next) {
      const settled = (): Promise<V> => {
        queued.delete(key);
        return start();
      };
      next = current.then(settled, settled);
      queued.set(key, next);
    }
    return next;
  };

  return {
    get(key, load) {
      const v = version();
      if (v !== generation) {
        generation = v;
        kept.clear();
        reading.clear();
      }
      if (v === null) return fresh(key, load);
      const hit = kept.get(key);
      if (hit !== undefined) return Promise.resolve(hit);
      const under = reading.get(key);
      if (under) return under;
      const p = load();
      reading.set(key, p);
      p.then(
        (value) => {
          if (reading.get(key) !== p) return;
          reading.delete(key);
          // Kept only if the version did not move while it was read (response-cache.ts's rule).
          if (version() === v && generation === v) kept.set(key, value);
        },
        () => {
          if (reading.get(key) === p) reading.delete(key);
        },
      );
      return p;
    },
  };
}
