import { createHash } from 'node:crypto';
import type { GetMethodJob, GetMethodOutcome, Tvm } from './executor.js';

/**
 * Get-method outcomes kept by everything they depend on. A get-method is a pure function of its job: the code, the
 * data, c7 (address, balance, NOW, the configuration, a zero random seed: executor.ts), the method id, the input
 * stack, the gas limit and the libraries. Wallets and jetton masters are asked the same question (`seqno`,
 * `get_wallet_data`) many times per block, so the same job recurs until the account or the block changes; the key is
 * a digest of the whole job, so a changed input is a different key and nothing kept can go stale.
 * Transactions are not kept (sending and fee estimation are rare and each message differs).
 */

export interface GetMethodCacheOptions {
  /** Outcomes kept; the least recently used go first. 0 keeps none. */
  entries: number;
  /** Most bytes of output stacks kept together. */
  maxBytes: number;
}

/** `tvm` with {@link Tvm.runGetMethod} outcomes kept by job (`close` closes `tvm`). */
export function withGetMethodCache(tvm: Tvm, opts: GetMethodCacheOptions): Tvm {
  if (opts.entries <= 0) return tvm;
  const kept = new Map<string, { outcome: GetMethodOutcome; bytes: number }>();
  let bytes = 0;
  /** Jobs running now, by key: concurrent equal jobs run once. */
  const running = new Map<string, Promise<GetMethodOutcome>>();
  // The configuration is the longest input (over 100 KB on mainnet) and the same string job after job: digested once.
  let lastConfig: { text: string; digest: Buffer } | null = null;
  const configDigest = (config: string): Buffer => {
    if (lastConfig?.text !== config) lastConfig = { text: config, digest: createHash('sha256').update(config).digest() };
    return lastConfig.digest;
  };

  const keyOf = (job: GetMethodJob): string => {
    const h = createHash('sha256');
    // Each field is length-prefixed, so that no two different jobs give the same byte string.
    const field = (s: string): void => {
      h.update(`${s.length}:`);
      h.update(s);
    };
    field(job.code);
    field(job.data);
    field(job.address);
    field(job.balance.toString());
    h.update(configDigest(job.config));
    field(String(job.now));
    field(String(job.methodId));
    field(job.stack);
    field(job.gasLimit.toString());
    field(job.libs ?? '');
    return h.digest('base64');
  };

  const keep = (key: string, outcome: GetMethodOutcome): void => {
    // Only complete results: a failure of the emulator itself may not recur.
    if (!outcome.ok) return;
    const b = outcome.stack.length + 64;
    if (b > opts.maxBytes) return;
    kept.set(key, { outcome, bytes: b });
    bytes += b;
    for (const [k, v] of kept) {
      if (kept.size <= opts.entries && bytes <= opts.maxBytes) break;
      kept.delete(k);
      bytes -= v.bytes;
    }
  };

  return {
    runGetMethod(job) {
      const key = keyOf(job);
      const hit = kept.get(key);
      if (hit) {
        // Map order is insertion order: re-inserting makes it the most recently used.
        kept.delete(key);
        kept.set(key, hit);
        return Promise.resolve(hit.outcome);
      }
      const under = running.get(key);
      if (under) return under;
      const p = tvm.runGetMethod(job);
      running.set(key, p);
      const done = (): void => {
        running.delete(key);
      };
      p.then((o) => {
        done();
        keep(key, o);
      }, done);
      return p;
    },
    runTransaction: (job) => tvm.runTransaction(job),
    close: () => tvm.close(),
  };
}
