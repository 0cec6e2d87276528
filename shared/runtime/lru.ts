/**
 * A bounded LRU map with an optional time to live. Its users cache two kinds of values only: content-addressed
 * ones, which can never change (the gateway's message bodies by cell hash, account states by state hash, a
 * transaction's (account, lt) by its hash; the action stage's rebuilt data by data hash), and short-lived views of
 * mutable data (address book entries) whose staleness is bounded by the TTL.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; expires: number }>();
  private weight = 0;

  constructor(
    private readonly max: number,
    /** 0 = no expiry. */
    private readonly ttlMs = 0,
    private readonly now: () => number = Date.now,
    /** Weight of a value (e.g. its size), counted against `maxWeight`; none by default. */
    private readonly weigh: (value: V) => number = () => 0,
    /**
     * Most total weight held: the least recently used go first, and a value heavier than this alone is not kept.
     * Counting entries alone does not bound memory when values differ in size by orders of magnitude (a record of a
     * transaction with 255 out-messages against one with none).
     */
    private readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    if (e.expires !== 0 && e.expires <= this.now()) {
      this.remove(key, e);
      return undefined;
    }
    // Re-insert: Map iteration order is insertion order, so the first key is the least recently used.
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** `ttlMs` overrides the cache's TTL for this entry (0 = no expiry). */
  set(key: K, value: V, ttlMs: number = this.ttlMs): void {
    if (this.max <= 0) return;
    const old = this.map.get(key);
    if (old) this.remove(key, old);
    const w = this.weigh(value);
    if (w > this.maxWeight) return;
    this.map.set(key, { value, expires: ttlMs > 0 ? this.now() + ttlMs : 0 });
    this.weight += w;
    while (this.map.size > this.max || this.weight > this.maxWeight) this.evictOldest();
  }

  /** Total weight of the values held. */
  get totalWeight(): number {
    return this.weight;
  }

  private evictOldest(): void {
    const oldest = this.map.entries().next();
    if (oldest.done) return;
    this.remove(oldest.value[0], oldest.value[1]);
  }

  private remove(key: K, e: { value: V }): void {
    this.map.delete(key);
    this.weight -= this.weigh(e.value);
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
    this.weight = 0;
  }
}
