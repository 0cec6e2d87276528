import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DevnetChain } from './chain.js';
import { genesis } from './genesis.js';
import { genesisSnapshot } from './snapshot.js';
import { STATE_SNAPSHOT_FILE, serializeStateSnapshot } from '../../ton/state-snapshot.js';
import { blockFileName } from './store.js';
import { type TrafficProfile, type TrafficRecord, TrafficGenerator } from './traffic.js';

export interface ExportOptions {
  /** Directory the block BOCs are written to (created if missing); replay it with `--source files:DIR`. */
  out: string;
  /** Stop after the block pair that brings the total to at least this many transactions. */
  transactions: number;
  seed?: string;
  /** Generated traffic rate in transactions per (simulated) second. Default 1000. */
  tps?: number;
  /** Simulated time between blocks. Default 1000. */
  blockMs?: number;
  traffic?: Exclude<TrafficProfile, 'none'>;
  /** gen_utime of the zerostates, seconds. Default: now. */
  genesisUtime?: number;
  walletsPerKind?: number;
  onProgress?: (p: ExportResult) => void;
  /** Told of every action the traffic generator sends (traffic.ts). */
  record?: (action: TrafficRecord) => void;
}

export interface ExportResult {
  blocks: number;
  /** Accounts in the genesis state snapshot written beside the blocks (`state-snapshot.json`). */
  snapshotAccounts: number;
  transactions: number;
  bytes: number;
  lastMcSeqno: number;
  seconds: number;
  /** Transactions executed and sealed per second of wall time (the chain is single-threaded: one core). */
  txPerSecond: number;
  /** CPU time of this process (user + system), and transactions per CPU second: the figure on a shared machine. */
  cpuSeconds: number;
  txPerCpuSecond: number;
  /** Largest resident set size seen, MiB. */
  peakRssMb: number;
}

/**
 * `tonflow devnet export`: runs a fresh devnet as fast as it goes (time is simulated, one block interval per block
 * pair) and writes every sealed block to `out` as `devnet_<wc>_<shard>_<seqno>.boc`, and the genesis accounts as
 * a state snapshot, `state-snapshot.json` (shared/ton/state-snapshot.ts), for the accounts no block touches. The corpus is real blocks of a
 * real chain: distinct transactions, multi-block traces, every block decodable like a mainnet one.
 */
export async function exportDevnet(opts: ExportOptions): Promise<ExportResult> {
  const seed = opts.seed ?? 'tonflow-devnet';
  const blockMs = opts.blockMs ?? 1000;
  const genesisUtime = opts.genesisUtime ?? Math.floor(Date.now() / 1000);
  const g = genesis({ seed, now: genesisUtime, walletsPerKind: opts.walletsPerKind });
  const chain = await DevnetChain.create({ seed, genesisUtime, accounts: g.accounts });
  const traffic = new TrafficGenerator(g.actors, { profile: opts.traffic ?? 'default', tps: opts.tps ?? 1000, seed, ...(opts.record ? { record: opts.record } : {}) }, TrafficGenerator.initialState(seed));
  await mkdir(opts.out, { recursive: true });
  const snapshot = genesisSnapshot({ seed, now: genesisUtime, walletsPerKind: opts.walletsPerKind });
  await writeFile(path.join(opts.out, STATE_SNAPSHOT_FILE), serializeStateSnapshot(snapshot));
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const result: ExportResult = { blocks: 0, snapshotAccounts: snapshot.accounts.length, transactions: 0, bytes: 0, lastMcSeqno: 0, seconds: 0, txPerSecond: 0, cpuSeconds: 0, txPerCpuSecond: 0, peakRssMb: 0 };
  let simulatedMs = 0;
  while (result.transactions < opts.transactions) {
    simulatedMs += blockMs;
    const now = genesisUtime + Math.floor(simulatedMs / 1000);
    for (const msg of traffic.generate(chain, now, blockMs)) chain.sendExternal(msg);
    const tick = await chain.tick(now);
    for (const b of tick.blocks) {
      await writeFile(path.join(opts.out, blockFileName(b)), b.data);
      result.blocks++;
      result.transactions += b.transactions.length;
      result.bytes += b.data.length;
    }
    result.lastMcSeqno = tick.mcSeqno;
    result.seconds = (performance.now() - started) / 1000;
    result.txPerSecond = Math.round(result.transactions / result.seconds);
    const cpu = process.cpuUsage(cpu0);
    result.cpuSeconds = (cpu.user + cpu.system) / 1e6;
    result.txPerCpuSecond = Math.round(result.transactions / result.cpuSeconds);
    result.peakRssMb = Math.max(result.peakRssMb, Math.round(process.memoryUsage.rss() / 1048576));
    if (tick.mcSeqno % 10 === 0) opts.onProgress?.({ ...result });
  }
  return result;
}
