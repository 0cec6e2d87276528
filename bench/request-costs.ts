import { performance } from 'node:perf_hooks';
import type { Store } from '../shared/store/store.js';

/**
 * What requests cost the gateway's process while a benchmark runs: the statements it sent to the store (how many,
 * of which kind, how long each took from the call to its answer, which includes the wait in the engine's queue),
 * the CPU time of the whole process (the serving thread, chdb's threads, the TVM workers), the serving thread's
 * active time and the TVM workers' busy time. `bench tvm` reports them per request.
 */

/** Statements by kind: the first table a statement reads (`FROM name`), or `other`. */
export type StatementCounts = Record<string, { n: number; ms: number }>;

export interface CostSnapshot {
  statements: StatementCounts;
  /** Process CPU time (user + system, every thread), ms. */
  cpuMs: number;
  /** The serving thread's event loop active time, ms. */
  loopMs: number;
  /** The TVM workers' busy time, ms. */
  tvmMs: number;
}

export interface CostMeter {
  /** The store to give the gateway: the same store, its reads counted. */
  store: Store;
  snapshot(): CostSnapshot;
}

export function statementKind(sql: string): string {
  const m = /\bFROM\s+([A-Za-z_][\w.]*)/i.exec(sql);
  return m ? m[1]! : 'other';
}

export function createCostMeter(store: Store, tvmBusyMs: () => number): CostMeter {
  const statements: StatementCounts = {};
  const count = async <T>(sql: string, run: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await run();
    } finally {
      const k = statementKind(sql);
      const s = (statements[k] ??= { n: 0, ms: 0 });
      s.n++;
      s.ms += performance.now() - t0;
    }
  };
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'query') return (sql: string, params?: Parameters<Store['query']>[1], opts?: Parameters<Store['query']>[2]) => count(sql, () => target.query(sql, params, opts));
      if (key === 'queryFields') {
        return (sql: string, columns: number, params?: Parameters<Store['queryFields']>[2], opts?: Parameters<Store['queryFields']>[3]) =>
          count(sql, () => target.queryFields(sql, columns, params, opts));
      }
      const v: unknown = Reflect.get(target, key, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return {
    store: counted,
    snapshot() {
      const cpu = process.cpuUsage();
      return {
        statements: Object.fromEntries(Object.entries(statements).map(([k, v]) => [k, { ...v }])),
        cpuMs: (cpu.user + cpu.system) / 1000,
        loopMs: performance.eventLoopUtilization().active,
        tvmMs: tvmBusyMs(),
      };
    },
  };
}

/** What happened between two snapshots, per request. */
export interface RequestCosts {
  statements_per_request: number;
  /** Mean time of a statement, from the call to its answer (queue wait included), ms. */
  statement_ms: number;
  /** Statements per request by kind. */
  by_kind: Record<string, number>;
  cpu_ms_per_request: number;
  loop_ms_per_request: number;
  tvm_ms_per_request: number;
}

export function costsBetween(a: CostSnapshot, b: CostSnapshot, requests: number): RequestCosts {
  const per = (x: number): number => Math.round((x / Math.max(1, requests)) * 1000) / 1000;
  let n = 0;
  let ms = 0;
  const byKind: Record<string, number> = {};
  for (const [k, v] of Object.entries(b.statements)) {
    const d = v.n - (a.statements[k]?.n ?? 0);
    if (d === 0) continue;
    n += d;
    ms += v.ms - (a.statements[k]?.ms ?? 0);
    byKind[k] = per(d);
  }
  return {
    statements_per_request: per(n),
    statement_ms: n === 0 ? 0 : Math.round((ms / n) * 100) / 100,
    by_kind: byKind,
    cpu_ms_per_request: per(b.cpuMs - a.cpuMs),
    loop_ms_per_request: per(b.loopMs - a.loopMs),
    tvm_ms_per_request: per(b.tvmMs - a.tvmMs),
  };
}
