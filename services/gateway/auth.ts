import { readFileSync } from 'node:fs';
import { ConfigError } from '../../shared/runtime/errors.js';
import { Lru } from '../../shared/runtime/lru.js';

/**
 * API keys and rate limits as TON Center's gateway enforces them (auth-limits.md): the key travels in the
 * `X-API-Key` header or the `api_key` query parameter; a request without a key gets the keyless limit (per client
 * address); an unknown key is refused (401); a key's limit is shared by every key of the same account; over the
 * limit the answer is 429. Limits are requests per second, enforced as a token bucket holding one second of burst.
 */

export interface ApiKey {
  key: string;
  /** Requests per second; 0 = unlimited. */
  rps: number;
  /** Keys of one account share one budget (auth-limits.md §2); defaults to the key itself. */
  account: string;
}

export interface KeySources {
  /** Contents of the keys file: `[{"key", "rps", "account"?}]` or `{"<key>": rps}`. */
  file?: string;
  /** `key:rps[:account]` entries, comma-separated (TONFLOW_API_KEYS). */
  env?: string;
}

/** Parses the configured keys; throws ConfigError listing every bad entry. */
export function parseApiKeys(src: KeySources, fileName = 'keys file'): ApiKey[] {
  const keys: ApiKey[] = [];
  const issues: string[] = [];
  const add = (key: unknown, rps: unknown, account: unknown, where: string): void => {
    if (typeof key !== 'string' || !/^[\x21-\x7e]{1,256}$/.test(key)) {
      issues.push(`${where}: key must be 1..256 printable characters`);
      return;
    }
    const n = typeof rps === 'string' ? Number(rps) : rps;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
      issues.push(`${where}: rps must be a number >= 0 (0 = unlimited)`);
      return;
    }
    if (account !== undefined && (typeof account !== 'string' || account === '')) {
      issues.push(`${where}: account must be a non-empty string`);
      return;
    }
    keys.push({ key, rps: n, account: (account) ?? `key:${key}` });
  };
  if (src.file !== undefined) {
    let data: unknown;
    try {
      data = JSON.parse(src.file);
    } catch (e) {
      issues.push(`${fileName}: not JSON (${(e as Error).message})`);
    }
    if (Array.isArray(data)) {
      data.forEach((e: unknown, i) => {
        const o = (e ?? {}) as Record<string, unknown>;
        add(o.key, o.rps, o.account, `${fileName}[${i}]`);
      });
    } else if (data && typeof data === 'object') {
      for (const [k, v] of Object.entries(data)) add(k, v, undefined, `${fileName}.${k.slice(0, 4)}…`);
    } else if (data !== undefined) {
      issues.push(`${fileName}: expected an array of {key, rps, account?} or an object {key: rps}`);
    }
  }
  if (src.env !== undefined) {
    src.env
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .forEach((entry, i) => {
        const [key, rps, account] = entry.split(':');
        add(key, rps, account, `TONFLOW_API_KEYS entry ${i + 1}`);
      });
  }
  const seen = new Set<string>();
  for (const k of keys) {
    if (seen.has(k.key)) issues.push(`API key ${k.key.slice(0, 4)}… is configured twice`);
    seen.add(k.key);
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return keys;
}

/** Reads the keys file and the environment list (composition roots only). */
export function loadApiKeys(file: string | undefined, env: string | undefined): ApiKey[] {
  let text: string | undefined;
  if (file !== undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ConfigError([`TONFLOW_API_KEYS_FILE: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`]);
    }
  }
  return parseApiKeys({ ...(text !== undefined ? { file: text } : {}), ...(env !== undefined ? { env } : {}) }, file ?? 'keys file');
}

export type Admission = { ok: true; principal: string } | { ok: false; status: 401 | 429 };

export interface RateLimiter {
  /** Decides one request: `key` as sent (undefined = none), `client` the peer address for the keyless budget. */
  admit(key: string | undefined, client: string): Admission;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Token buckets per account (keys) and per client address (no key). */
export function createRateLimiter(opts: { keys: readonly ApiKey[]; rpsWithoutKey: number; now?: () => number }): RateLimiter {
  const now = opts.now ?? (() => performance.now());
  const byKey = new Map(opts.keys.map((k) => [k.key, k]));
  // "The RPS figure is shared by all keys of the account" (auth-limits.md §2): one figure per account, the highest
  // its keys give, whichever key a request uses.
  // A key with rps 0 (unlimited) makes its whole account unlimited.
  const accountRps = new Map<string, number>();
  for (const k of opts.keys) accountRps.set(k.account, Math.max(accountRps.get(k.account) ?? 0, k.rps === 0 ? Infinity : k.rps));
  const accounts = new Map<string, Bucket>();
  // One bucket per client address without a key; bounded so that a scan of addresses cannot exhaust memory.
  const clients = new Lru<string, Bucket>(100_000);

  function take(b: Bucket, rps: number): boolean {
    const t = now();
    // At least one request of burst: a budget under 1 rps still admits one request every 1/rps seconds.
    b.tokens = Math.min(Math.max(1, rps), b.tokens + ((t - b.at) / 1000) * rps);
    b.at = t;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  return {
    admit(key, client) {
      if (key !== undefined && key !== '') {
        const k = byKey.get(key);
        if (!k) return { ok: false, status: 401 };
        const rps = accountRps.get(k.account)!;
        if (rps === Infinity) return { ok: true, principal: k.account };
        let b = accounts.get(k.account);
        if (!b) accounts.set(k.account, (b = { tokens: Math.max(1, rps), at: now() }));
        return take(b, rps) ? { ok: true, principal: k.account } : { ok: false, status: 429 };
      }
      const rps = opts.rpsWithoutKey;
      if (rps === 0) return { ok: true, principal: `ip:${client}` };
      let b = clients.get(client);
      if (!b) clients.set(client, (b = { tokens: Math.max(1, rps), at: now() }));
      return take(b, rps) ? { ok: true, principal: `ip:${client}` } : { ok: false, status: 429 };
    },
  };
}
