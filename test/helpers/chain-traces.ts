import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TraceActionsJson } from '../../shared/contracts/actions.js';
import { decodeTraceActions } from '../../shared/contracts/actions.js';
import { type TraceJson, decodeTrace } from '../../shared/contracts/trace.js';
import { type ClassifierInput, readClassifierInputs } from '../../services/actions/read.js';
import { createLogger } from '../../shared/runtime/logger.js';
import { type GenesisAccount, DevnetChain, type ExternalResult } from '../../shared/sources/devnet/chain.js';
import { type DCell, serializeBoc } from '../../shared/sources/devnet/cell.js';
import { type Actors, genesis } from '../../shared/sources/devnet/genesis.js';
import { blockFileName } from '../../shared/sources/devnet/store.js';
import { genesisShardAccount, type StdAddr } from '../../shared/sources/devnet/tlb.js';
import { type Transfer, type Wallet } from '../../shared/sources/devnet/wallets.js';
import { STATE_SNAPSHOT_FILE, STATE_SNAPSHOT_FORMAT, STATE_SNAPSHOT_VERSION, type SnapshotAccount, serializeStateSnapshot, snapshotAccountOf } from '../../shared/ton/state-snapshot.js';
import type { Store } from '../../shared/store/store.js';
import { collect, waitFor } from './bus-contract.js';
import { openEmbedded } from './pipeline.js';

/**
 * Scenarios on the real contracts for the classifier's tests: a devnet chain (shared/sources/devnet, the real TVM)
 * with its genesis (wallets with keys, jettons, an NFT collection, a .ton DNS collection, a multisig v2, a vesting
 * wallet) plus the accounts a test adds (e.g. a getgems sale contract from the fixtures' code), driven by signed
 * wallet externals; then its blocks through the embedded pipeline as `tonflow start` runs it (files source →
 * decode, trace and action stages → chdb). A test checks the actions against what it drove, never against what
 * the classifier printed first.
 *
 *   const s = await chainScenario({ seed: 'multisig', extraAccounts: (actors, now) => [...] });
 *   const r = await s.send(wallet, [{ to, value, bounce: true, body }]);   // sealed until its messages settle
 *   const ix = await s.index();                                           // the stages' output, by trace id
 *   ix.actionsOf(r)  // the actions of the trace r's external started
 *   await ix.close(); s.close();
 */

export interface ChainScenario {
  chain: DevnetChain;
  actors: Actors;
  /** The chain's clock (seconds): the next block's gen_utime. */
  readonly now: number;
  /**
   * Signs `transfers` with the wallet's next seqno (kept here, from 0 at genesis), sends the external and seals
   * blocks until it is in a block and no message is queued. Throws when the wallet did not accept it.
   */
  send(wallet: Wallet, transfers: Transfer[]): Promise<SentExternal>;
  /** Sends any external message and settles like {@link send}. */
  sendExternal(msg: DCell): Promise<SentExternal>;
  /** Seals `n` blocks (the clock advances a second per block). */
  tick(n?: number): Promise<void>;
  /** Writes the blocks sealed so far and indexes them; the chain can go on afterwards, `index` again for more. */
  index(): Promise<IndexedScenario>;
  /** Removes the blocks' directory. */
  close(): void;
}

export interface SentExternal {
  result: ExternalResult;
  /** The trace's id (the root transaction's hash, base64 as the stages write it). */
  traceId: string;
}

export interface IndexedScenario {
  store: Store;
  /** The complete traces published on `<prefix>.traces`, by trace id. */
  traces: Map<string, TraceJson>;
  /** What the action stage published per trace (its storage rows, children included). */
  actions: Map<string, TraceActionsJson['actions']>;
  /** The actions of the trace a sent external started ([] when none were published). */
  actionsOf(sent: SentExternal): TraceActionsJson['actions'];
  /** The action stage's classifier input for a trace (the trace and the interface lookup it built from the store). */
  input(sent: SentExternal): Promise<ClassifierInput>;
  close(): Promise<void>;
}

export interface ChainScenarioOptions {
  seed: string;
  walletsPerKind?: number;
  /** Accounts to add to the genesis (same `now` as the chain's zerostate). */
  extraAccounts?: (actors: Actors, now: number) => GenesisAccount[];
}

const GENESIS_UTIME = 1_760_000_000;
/** Blocks sealed after a message settles before giving up on it: a trace on the devnet is a handful of blocks deep. */
const MAX_SETTLE_BLOCKS = 64;

export async function chainScenario(opts: ChainScenarioOptions): Promise<ChainScenario> {
  const g = genesis({ seed: opts.seed, now: GENESIS_UTIME, walletsPerKind: opts.walletsPerKind ?? 4 });
  const accounts = [...g.accounts, ...(opts.extraAccounts?.(g.actors, GENESIS_UTIME) ?? [])];
  const chain = await DevnetChain.create({ seed: opts.seed, genesisUtime: GENESIS_UTIME, accounts });
  const dir = mkdtempSync(path.join(os.tmpdir(), `tonflow-scenario-${opts.seed.replace(/[^a-z0-9]/gi, '_')}-`));
  const blocksDir = path.join(dir, 'blocks');
  const snapshot: SnapshotAccount[] = [];
  for (const a of accounts) {
    const entry = snapshotAccountOf(serializeBoc(genesisShardAccount({ workchain: a.workchain, hash: a.hash }, a.code, a.data, a.balance, GENESIS_UTIME)));
    if (entry) snapshot.push(entry);
  }
  mkdirSync(blocksDir);
  const seqnos = new Map<Wallet, number>();
  let now = GENESIS_UTIME;
  let lastMcSeqno = 0;
  let indexed = 0;

  const tick = async (): Promise<void> => {
    now += 1;
    const t = await chain.tick(now);
    for (const b of t.blocks) writeFileSync(path.join(blocksDir, blockFileName(b)), b.data);
    lastMcSeqno = t.mcSeqno;
  };

  const settle = async (result: Promise<ExternalResult>): Promise<ExternalResult> => {
    let done: ExternalResult | undefined;
    void result.then((r) => (done = r));
    for (let i = 0; i < MAX_SETTLE_BLOCKS; i++) {
      await tick();
      await Promise.resolve();
      if (done && chain.queuedMessages === 0) break;
    }
    if (!done) throw new Error('the external was not included');
    if (chain.queuedMessages !== 0) throw new Error(`${chain.queuedMessages} messages still queued after ${MAX_SETTLE_BLOCKS} blocks`);
    // Two more pairs, so the masterchain commits everything and the last traces are complete.
    await tick();
    await tick();
    return done;
  };

  const sendExternal = async (msg: DCell): Promise<SentExternal> => {
    const result = await settle(chain.sendExternal(msg).result);
    if (!result.accepted || !result.transaction) throw new Error(`external not accepted: ${result.error ?? 'no transaction'}`);
    return { result, traceId: Buffer.from(result.transaction.hash).toString('base64') };
  };

  return {
    chain,
    actors: g.actors,
    get now() {
      return now + 1;
    },
    async send(wallet, transfers) {
      const seqno = seqnos.get(wallet) ?? 0;
      const sent = await sendExternal(wallet.transfer(transfers, { seqno, now: now + 1 }));
      seqnos.set(wallet, seqno + 1);
      return sent;
    },
    sendExternal,
    async tick(n = 1) {
      for (let i = 0; i < n; i++) await tick();
    },
    async index() {
      // The files source reads a whole directory: every block sealed so far, and the genesis snapshot.
      const runDir = path.join(dir, `run-${++indexed}`);
      mkdirSync(runDir);
      for (const f of readdirSync(blocksDir)) copyFileSync(path.join(blocksDir, f), path.join(runDir, f));
      writeFileSync(
        path.join(runDir, STATE_SNAPSHOT_FILE),
        serializeStateSnapshot({ format: STATE_SNAPSHOT_FORMAT, version: STATE_SNAPSHOT_VERSION, mc_seqno: 0, gen_utime: GENESIS_UTIME, accounts: snapshot }),
      );
      return indexBlocks(runDir, path.join(dir, `data-${indexed}-${randomBytes(3).toString('hex')}`), lastMcSeqno);
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function indexBlocks(dir: string, dataDir: string, lastMcSeqno: number): Promise<IndexedScenario> {
  const logger = createLogger({ service: 'scenario-test', level: 'warn' });
  const p = await openEmbedded({ dir, dataDir, name: 'scenario', logger });
  let ok = false;
  try {
    const tracesOut = collect(p.bus, { groupId: 'reader-traces', topics: [p.topics.traces] });
    const actionsOut = collect(p.bus, { groupId: 'reader-actions', topics: [p.topics.actions] });
    const run = await p.start({ traces: true, actions: true });
    await waitFor(() => run.traced >= lastMcSeqno || run.poison.length > 0, 180_000, 'traces of the last masterchain block stored');
    const [complete] = await p.store.query<{ n: string }>("SELECT count() AS n FROM traces FINAL WHERE state = 'complete'");
    const n = Number(complete?.n ?? 0);
    await waitFor(() => tracesOut.received.length >= n || run.poison.length > 0, 120_000, 'complete traces published');
    await waitFor(() => actionsOut.received.length >= n || run.poison.length > 0, 120_000, 'actions of every trace published');
    if (run.poison.length > 0) throw new Error(`dead-lettered: ${run.poison.map(String).join('; ')}`);
    await run.stop();
    await tracesOut.consumer.stop();
    await actionsOut.consumer.stop();
    const traces = new Map(tracesOut.received.map((m) => decodeTrace(m)).map((t) => [t.trace_id, t] as const));
    const actions = new Map(actionsOut.received.map((m) => decodeTraceActions(m)).map((a) => [a.trace_id, a.actions] as const));
    ok = true;
    const store = p.store;
    return {
      store,
      traces,
      actions,
      actionsOf: (sent) => actions.get(sent.traceId) ?? [],
      async input(sent) {
        const t = traces.get(sent.traceId);
        if (!t) throw new Error(`trace ${sent.traceId} was not published`);
        const [r] = await readClassifierInputs(store, [t]);
        if (!r?.ok) throw r?.error ?? new Error('no input');
        return r.input;
      },
      async close() {
        await store.command(`DROP DATABASE IF EXISTS \`${store.database}\``).catch(() => {});
        await store.close();
      },
    };
  } finally {
    await p.close({ keepStore: ok });
  }
}

/** Raw `wc:HEX` (upper case) of a devnet address, as action rows print addresses. */
export const rawAddress = (a: StdAddr): string => `${a.workchain}:${Buffer.from(a.hash).toString('hex').toUpperCase()}`;
