import { Lru } from '../../shared/runtime/lru.js';

/**
 * Whole GET responses, reused while the store has not changed.
 *
 * Most API reads are repeated: the same account page, the same block, the same message by many clients within a
 * second. Every answer is a function of the request and the store's content, so an answer stays right until the
 * content changes. What changes content is a new part (an insert), a merge or a mutation: each replaces parts, so
 * the set of active parts of the database is a version of its content. The cache reads that version (a fingerprint
 * of `system.parts`) every `checkMs` and drops everything when it moves; an answer is kept only if the version did
 * not move while it was being computed. A reader therefore sees new data at most `checkMs` after the store
 * acknowledged it (the indexing lag itself is seconds), and during ingestion the cache empties at that pace.
 *
 * When the version cannot be read (a store outage), nothing is served from the cache and nothing is stored until
 * it can: the cache never answers for a store it cannot see.
 */

/** A response as sent: the serialized body and the headers that belong to it. */
export interface CachedResponse {
  /** UTF-8 bytes: encoded once when kept, not on every hit (pages of transactions run to hundreds of KB). */
  body: Buffer;
  contentType: string;
  /** Headers of the answer itself (e.g. the keyset cursor), replayed on a hit. */
  headers: Record<string, string>;
}

export interface ResponseCacheOptions {
  /** Responses kept; 0 disables the cache. */
  entries: number;
  /** Bodies kept in total, bytes; the least recently used go first. */
  maxBytes?: number;
  /** Largest body kept, bytes: one page must not push out hundreds of others. */
  maxBodyBytes?: number;
  /** How often the store's version is read, ms. */
  checkMs: number;
  /** Reads the store's version: any string that changes whenever the stored content may have. */
  readVersion: () => Promise<string>;
  onError?: (err: unknown) => void;
}

export interface ResponseCache {
  /** The version a request computing an answer now should remember, or null when answers may not be cached. */
  version(): number | null;
  get(key: string): CachedResponse | undefined;
  /** Keeps `value` if the store's version is still `version` (the one taken when the request started). */
  set(key: string, value: CachedResponse, version: number): void;
  /** Reads the version once (at start, before serving) and then every `checkMs`. */
  start(): Promise<void>;
  /** Stops checking; resolves once a check under way has finished (before the store closes). */
  stop(): Promise<void>;
}

const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

export function createResponseCache(opts: ResponseCacheOptions): ResponseCache {
  // Keys weigh too: a URL may be up to 1 MiB (app.ts), and unknown query keys make any number of distinct ones.
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const lru = new Lru<string, CachedResponse & { keyBytes: number }>(opts.entries, 0, Date.now, (v) => v.body.length + v.keyBytes, maxBytes);
  const maxBody = Math.min(opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, maxBytes);
  let storeVersion: string | null = null;
  /** Bumped on every change of the store version (and when it becomes unknown): what requests remember. */
  let generation = 0;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let checking: Promise<void> | null = null;

  async function check(): Promise<void> {
    let next: string | null;
    try {
      next = await opts.readVersion();
    } catch (e) {
      opts.onError?.(e);
      next = null;
    }
    if (next === null || next !== storeVersion) {
      lru.clear();
      generation++;
    }
    storeVersion = next;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      checking = check().finally(() => {
        checking = null;
        schedule();
      });
    }, opts.checkMs);
    // The check must never keep a process alive that is otherwise done.
    timer.unref();
  }

  return {
    version: () => (opts.entries > 0 && storeVersion !== null ? generation : null),
    get: (key) => (opts.entries > 0 && storeVersion !== null ? lru.get(key) : undefined),
    set(key, value, version) {
      if (opts.entries <= 0 || storeVersion === null || version !== generation || value.body.length > maxBody) return;
      lru.set(key, { ...value, keyBytes: 2 * key.length });
    },
    async start() {
      if (opts.entries <= 0) return;
      await check();
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await checking;
    },
  };
}

/**
 * The cache key of a request: method and URL, less the API key (answers do not depend on who asks), plus the
 * headers that change the answer's content.
 */
export function responseCacheKey(method: string, url: string, noAddressBook: boolean, noMetadata: boolean, actionsVersion = ''): string {
  const q = url.indexOf('?');
  let u = url;
  if (q >= 0 && url.includes('api_key', q)) {
    const params = new URLSearchParams(url.slice(q + 1));
    params.delete('api_key');
    const rest = params.toString();
    u = rest ? `${url.slice(0, q)}?${rest}` : url.slice(0, q);
  }
  // X-Actions-Version replaces supported_action_types (api-v3.md §0.2).
  return `${method} ${u} ${noAddressBook ? 1 : 0}${noMetadata ? 1 : 0}${actionsVersion === '' ? '' : ` ${actionsVersion}`}`;
}
