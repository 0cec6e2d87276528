import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POINT_TABLES, STORE_TABLES, type StoreRows, toRows } from '../../services/indexer/rows.js';
import { ConfigError, isRetryable } from '../../shared/runtime/errors.js';
import { createStore, describeTarget, hasLegacyAnalyzer, serverClientOptions } from '../../shared/store/client.js';
import { StoreQueryError, StoreUnavailableError, translateStoreError } from '../../shared/store/errors.js';
import { defaultMigrationsDir, loadMigrations, migrate, splitStatements } from '../../shared/store/migrate.js';
import type { Store } from '../../shared/store/store.js';
import { encodeRows } from '../../shared/store/tsv.js';
import { parseBlock, toRecords } from '../../shared/ton/decode-block.js';
import type { V3Message } from '../../shared/ton/records/message.js';
import type { V3Transaction } from '../../shared/ton/records/transaction.js';
import { describeClickHouse } from '../helpers/clickhouse.js';
import { describeFixtures, fixturesDir, readFixture } from '../helpers/fixtures.js';
import { legacyTransactionRow } from './legacy-transaction-row.js';

/*
 * The store against real ClickHouse, in-process (chdb) and as a server over HTTP (`--clickhouse URL`): migrations,
 * idempotent inserts of every fixture block, and a lossless round trip of transactions and messages. Each run works
 * in its own database (under its own data directory for chdb) and drops both at the end.
 */

const TABLES = STORE_TABLES;

/** Natural key of each table's rows (its ORDER BY), to count what FINAL must show. */
const KEY: { [T in keyof StoreRows]: (r: StoreRows[T][number]) => string } = {
  blocks: (r) => `${r.workchain}:${r.shard}:${r.seqno}`,
  shard_state: (r) => `${r.mc_seqno}:${r.workchain}:${r.shard}:${r.seqno}`,
  transactions: (r) => `${r.account}:${r.lt}`,
  messages: (r) => `${r.tx_account}:${r.tx_lt}:${r.direction}:${r.msg_hash}`,
  message_contents: (r) => r.hash,
  message_hash_norms: (r) => `${r.hash_norm}:${r.msg_hash}`,
  account_states: (r) => r.hash,
  latest_account_states: (r) => r.account,
  transaction_documents: (r) => r.key,
  transaction_hash_points: (r) => r.hash,
  transaction_bocs: (r) => `${r.account}:${r.lt}`,
  key_block_configs: (r) => String(r.mc_seqno),
  cells: (r) => r.hash,
};
/** `FROM t` as it reads each table's latest rows. */
const latest = (t: string): string => (POINT_TABLES.has(t) ? t : `${t} FINAL`);

interface Decoded {
  file: string;
  transactions: V3Transaction[];
  rows: StoreRows;
}

/**
 * Decodes every fixture block. The fixtures are isolated blocks, so a shard block's committing masterchain block is
 * unknown: it stands in `master_ref_seqno + 1`, the earliest masterchain block that could commit it.
 */
function decodeFixtures(): Decoded[] {
  const dir = path.join(fixturesDir, 'blocks');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.boc'))
    .sort()
    .map((file) => {
      const bytes = readFixture(`blocks/${file}`);
      const parsed = parseBlock(bytes);
      const decoded = toRecords(parsed, bytes);
      const b = decoded.block;
      const mcSeqno = b.workchain === -1 ? b.seqno : (b.master_ref_seqno ?? b.min_ref_mc_seqno) + 1;
      const rows = toRows(decoded, { mcSeqno, points: true });
      return { file, transactions: decoded.transactions, rows };
    });
}

function mergeRows(all: Decoded[]): StoreRows {
  const out = Object.fromEntries(TABLES.map((t) => [t, [] as object[]])) as unknown as StoreRows;
  for (const d of all) for (const t of TABLES) (out[t] as object[]).push(...(d.rows[t] as object[]));
  return out;
}

async function insertAll(store: Store, rows: StoreRows): Promise<void> {
  for (const t of TABLES) await store.insert(t, rows[t]);
}

function distinctCount<T extends keyof StoreRows>(table: T, rows: StoreRows): number {
  const key = KEY[table];
  return new Set((rows[table] as Array<StoreRows[T][number]>).map(key)).size;
}


const shardHexOf = (dec: unknown): string => BigInt(String(dec)).toString(16).toUpperCase();

/** The record fields a transactions row must reproduce. */
function expectTxRow(row: Record<string, unknown>, tx: V3Transaction, mcSeqno: number | null): void {
  expect({
    account: row.account,
    hash: row.hash,
    lt: row.lt,
    now: row.now,
    mc_block_seqno: row.mc_block_seqno,
    trace_id: row.trace_id,
    prev_trans_hash: row.prev_trans_hash,
    prev_trans_lt: row.prev_trans_lt,
    orig_status: row.orig_status,
    end_status: row.end_status,
    total_fees: row.total_fees,
    total_fees_extra_currencies: row.total_fees_extra_currencies,
    description: JSON.parse(String(row.description)),
    block_ref: { workchain: row.block_workchain, shard: shardHexOf(row.block_shard), seqno: row.block_seqno },
    account_state_before: row.account_state_hash_before,
    account_state_after: row.account_state_hash_after,
  }).toEqual({
    account: tx.account,
    hash: tx.hash,
    lt: tx.lt,
    now: tx.now,
    mc_block_seqno: mcSeqno,
    trace_id: tx.trace_id ?? null,
    prev_trans_hash: tx.prev_trans_hash,
    prev_trans_lt: tx.prev_trans_lt,
    orig_status: tx.orig_status,
    end_status: tx.end_status,
    total_fees: tx.total_fees,
    total_fees_extra_currencies: tx.total_fees_extra_currencies,
    description: tx.description,
    block_ref: tx.block_ref,
    account_state_before: tx.account_state_before.hash,
    account_state_after: tx.account_state_after.hash,
  });
}

/** A Message record rebuilt from a messages row and its contents (sentinels mapped back to NULL). */
function messageFromRow(r: Record<string, unknown>, contents: Map<string, Record<string, unknown>>): Record<string, unknown> {
  const content = (hash: unknown): Record<string, unknown> | null => {
    if (hash === null) return null;
    const c = contents.get(String(hash));
    return c ? { hash, body: c.boc, decoded: c.decoded === null ? null : JSON.parse(String(c.decoded)) } : { hash, body: undefined, decoded: undefined };
  };
  const opcode = r.opcode === null ? null : '0x' + (Number(r.opcode) >>> 0).toString(16).padStart(8, '0');
  return {
    hash: r.msg_hash,
    source: r.source === '' ? null : r.source,
    destination: r.destination === '' ? null : r.destination,
    value: r.value,
    value_extra_currencies: r.value === null ? null : r.value_extra_currencies,
    fwd_fee: r.fwd_fee,
    ihr_fee: r.ihr_fee,
    created_lt: r.created_lt === '0' ? null : r.created_lt,
    created_at: r.created_at === 0 ? null : String(r.created_at),
    opcode,
    ihr_disabled: r.ihr_disabled,
    bounce: r.bounce,
    bounced: r.bounced,
    import_fee: r.import_fee,
    extra_flags: r.extra_flags,
    message_content: content(r.body_hash),
    init_state: content(r.init_state_hash),
    ...(r.hash_norm === null ? {} : { hash_norm: r.hash_norm }),
  };
}

function messageView(m: V3Message): Record<string, unknown> {
  const { decoded_opcode: _ignored, ...rest } = m;
  return rest;
}

/**
 * TransactionDescr records (keys in the order descriptionRecord() writes them) of the kinds the fixture blocks do
 * not have, for the upgrade test.
 */
function syntheticDescriptions(): Array<Record<string, unknown>> {
  const hash = (n: number): string => Buffer.alloc(32, n).toString('base64');
  const addr = (n: number): string => `0:${n.toString(16).toUpperCase().padStart(2, '0').repeat(32)}`;
  const computed = {
    skipped: false,
    success: false,
    msg_state_used: true,
    account_activated: true,
    gas_fees: '18446744073709551616',
    gas_used: '4000',
    gas_limit: '10000',
    gas_credit: '10000',
    mode: -1,
    exit_code: -14,
    exit_arg: -2147483648,
    vm_steps: 4294967295,
    vm_init_state_hash: hash(0xf1),
    vm_final_state_hash: hash(0xf2),
  };
  const action = {
    success: true,
    valid: true,
    no_funds: false,
    status_change: 'deleted',
    total_fwd_fees: '1',
    total_action_fees: '2',
    result_code: 0,
    result_arg: 7,
    tot_actions: 255,
    spec_actions: 1,
    skipped_actions: 2,
    msgs_created: 3,
    action_list_hash: hash(0xf3),
    tot_msg_size: { cells: '4', bits: '18446744073709551615' },
  };
  return [
    { type: 'storage', storage_ph: { storage_fees_collected: '5', storage_fees_due: '7', status_change: 'frozen' } },
    {
      type: 'ord',
      aborted: false,
      destroyed: true,
      credit_first: false,
      storage_ph: { storage_fees_collected: '0', status_change: 'deleted' },
      credit_ph: { due_fees_collected: '3', credit: '340282366920938463463374607431768211455', credit_extra_currencies: { '7': '1', '239': '115792089237316195423570985008687907853269984665640564039457584007913129639935' } },
      compute_ph: computed,
      action,
      bounce: { type: 'negfunds' },
    },
    {
      type: 'split_prepare',
      aborted: true,
      destroyed: false,
      storage_ph: { storage_fees_collected: '1', status_change: 'unchanged' },
      compute_ph: { skipped: true, reason: 'no_gas' },
      split_info: { cur_shard_pfx_len: 2, acc_split_depth: 3, this_addr: addr(0xab), sibling_addr: addr(0xcd) },
    },
    { type: 'split_install', installed: false, split_info: { cur_shard_pfx_len: 0, acc_split_depth: 60, this_addr: addr(1), sibling_addr: addr(2) } },
    { type: 'merge_prepare', aborted: false, storage_ph: { storage_fees_collected: '9', status_change: 'unchanged' }, split_info: { cur_shard_pfx_len: 1, acc_split_depth: 1, this_addr: addr(3), sibling_addr: addr(4) } },
    {
      type: 'merge_install',
      aborted: false,
      destroyed: false,
      credit_first: true,
      installed: true,
      credit_ph: { credit: '0', credit_extra_currencies: {} },
      compute_ph: { skipped: true, reason: 'bad_state' },
      split_info: { cur_shard_pfx_len: 4, acc_split_depth: 4, this_addr: addr(5), sibling_addr: addr(6) },
    },
    { type: 'tick_tock', aborted: false, destroyed: false, is_tock: true, storage_ph: { storage_fees_collected: '0', status_change: 'unchanged' }, compute_ph: computed, action, bounce: { type: 'ok', msg_size: { cells: '1', bits: '2' }, msg_fees: '3', fwd_fees: '4' } },
  ];
}

const runId = `${process.pid}_${Date.now().toString(36)}`;

/** How a suite reaches its engine: chdb in this process under `dataDir`, or a server at `url`. */
type Target = { kind: 'chdb' } | { kind: 'server'; url: string };

function openTarget(target: Target, dataDir: string, database: string): Promise<Store> {
  return target.kind === 'chdb'
    ? createStore({ mode: 'embedded', dataDir, database })
    : createStore({ mode: 'server', url: target.url, database });
}

function storeSuite(target: Target): void {
  let dataDir = '';
  let store: Store;
  let decoded: Decoded[] = [];
  let rows: StoreRows;
  const open = (database: string): Promise<Store> => openTarget(target, dataDir, database);

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-store-'));
    store = await open(`test_store_${target.kind}_${runId}`);
    decoded = decodeFixtures();
    rows = mergeRows(decoded);
  });

  afterAll(async () => {
    if (store) {
      await store.command(`DROP DATABASE IF EXISTS ${store.database}`);
      await store.close();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates a fresh database, then finds nothing to do', async () => {
    const files = loadMigrations().map((m) => m.file);
    expect(files.slice(0, 4)).toEqual(['0001_blocks.sql', '0002_transactions.sql', '0003_messages.sql', '0004_account_states.sql']);
    const first = await migrate(store);
    expect(first.applied).toEqual(files);
    const second = await migrate(store);
    expect(second.applied).toEqual([]);
    expect(second.version).toBe(first.version);
    const tables = await store.query<{ name: string }>('SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name');
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining([...TABLES, 'schema_migrations']));
    const recorded = await store.query<{ n: string }>('SELECT count() AS n FROM schema_migrations');
    expect(Number(recorded[0]!.n)).toBe(files.length);
  });

  it('keeps every fixture row once under FINAL, however often it is inserted', async () => {
    expect(rows.transactions.length).toBeGreaterThan(1000);
    // Within one batch the mapping already emits each key once (contents shared across blocks aside).
    expect(distinctCount('transactions', rows)).toBe(rows.transactions.length);
    expect(distinctCount('messages', rows)).toBe(rows.messages.length);

    // With merges stopped the replay's duplicates are physically there, so FINAL is what hides them; so are keys
    // repeated inside one insert, like bodies shared by two blocks (inserts run with optimize_on_insert = 0).
    const merged = TABLES.filter((t) => !POINT_TABLES.has(t));
    for (const t of merged) await store.command(`SYSTEM STOP MERGES ${t}`);
    await insertAll(store, rows);
    await insertAll(store, rows); // the at-least-once replay
    const counts = async (t: string): Promise<{ raw: number; final: number }> => {
      const [c] = await store.query<{ raw: string; final: string }>(`SELECT (SELECT count() FROM ${t}) AS raw, (SELECT count() FROM ${latest(t)}) AS final`);
      return { raw: Number(c!.raw), final: Number(c!.final) };
    };
    for (const t of TABLES) {
      const inserted = rows[t].length;
      // A key → value table holds one row per key however often it is written.
      const raw = POINT_TABLES.has(t) ? distinctCount(t, rows) : 2 * inserted;
      expect({ table: t, ...(await counts(t)) }).toEqual({ table: t, raw, final: distinctCount(t, rows) });
    }
    // Projections are lookups without FINAL: before a merge they see both copies (harmless, keys only) ...
    const tx = rows.transactions[0]!;
    const viaProjection = (): Promise<Array<{ n: string }>> =>
      store.query<{ n: string }>('SELECT count() AS n FROM transactions WHERE hash = {h:String}', { h: tx.hash });
    expect(await viaProjection()).toEqual([{ n: '2' }]);

    // ... and after the merge dropped duplicates, `deduplicate_merge_projection_mode = 'rebuild'` rebuilt them.
    for (const t of merged) {
      await store.command(`SYSTEM START MERGES ${t}`);
      await store.command(`OPTIMIZE TABLE ${t} FINAL`);
      const expected = distinctCount(t, rows);
      expect({ table: t, ...(await counts(t)) }).toEqual({ table: t, raw: expected, final: expected });
    }
    expect(await viaProjection()).toEqual([{ n: '1' }]);
  });

  it('reads a transaction back by hash and by (account, lt) with every field intact', async () => {
    const sample = decoded.flatMap((d) => d.transactions.slice(0, 2).map((tx) => ({ tx, mc: d.rows.blocks[0]!.mc_block_seqno })));
    expect(sample.length).toBeGreaterThan(10);
    for (const { tx, mc } of sample) {
      const byHash = await store.query(
        'SELECT * FROM transactions FINAL WHERE (account, lt) IN (SELECT account, lt FROM transactions WHERE hash = {hash:String})',
        { hash: tx.hash },
      );
      expect(byHash).toHaveLength(1);
      expectTxRow(byHash[0]!, tx, mc);
      const byKey = await store.query('SELECT * FROM transactions FINAL WHERE account = {account:String} AND lt = {lt:UInt64}', {
        account: tx.account,
        lt: tx.lt,
      });
      expect(byKey).toEqual(byHash);
    }
  });

  it('round-trips every transaction, message and recovered account state of the fixtures', async () => {
    const txRows = await store.query('SELECT * FROM transactions FINAL');
    const msgRows = await store.query('SELECT * FROM messages FINAL ORDER BY tx_account, tx_lt, direction, created_lt');
    const contents = new Map((await store.query('SELECT * FROM message_contents FINAL')).map((c) => [String(c.hash), c]));
    const states = new Map((await store.query('SELECT * FROM account_states FINAL')).map((s) => [String(s.hash), s]));
    const txByKey = new Map(txRows.map((r) => [`${r.account}:${r.lt}`, r]));
    const msgsByTx = new Map<string, Array<Record<string, unknown>>>();
    for (const m of msgRows) {
      const k = `${m.tx_account}:${m.tx_lt}`;
      msgsByTx.set(k, [...(msgsByTx.get(k) ?? []), m]);
    }
    let checked = 0;
    let statesChecked = 0;
    for (const d of decoded) {
      for (const tx of d.transactions) {
        const key = `${tx.account}:${tx.lt}`;
        expectTxRow(txByKey.get(key)!, tx, d.rows.blocks[0]!.mc_block_seqno);
        const ms = msgsByTx.get(key) ?? [];
        const inRow = ms.find((m) => m.direction === 'in');
        expect(inRow ? messageFromRow(inRow, contents) : null).toEqual(tx.in_msg ? messageView(tx.in_msg) : null);
        // out_msgs are listed by created_lt ascending (api-v3.md §1.5), which is how the rows were ordered.
        expect(ms.filter((m) => m.direction === 'out').map((m) => messageFromRow(m, contents))).toEqual(tx.out_msgs.map(messageView));
        for (const s of [tx.account_state_before, tx.account_state_after]) {
          if (s.balance === null) continue;
          const row = states.get(s.hash)!;
          expect({
            hash: row.hash,
            balance: row.balance,
            extra_currencies: row.extra_currencies,
            account_status: row.status,
            frozen_hash: row.frozen_hash,
            data_hash: row.data_hash,
            code_hash: row.code_hash,
          }).toEqual(s);
          statesChecked++;
        }
        checked++;
      }
    }
    expect(checked).toBe(rows.transactions.length);
    expect(statesChecked).toBeGreaterThan(100);
  });

  it('lets richer or newer rows win over replays: trace_id on transactions, last_trans_lt on latest states', async () => {
    const tx = rows.transactions[0]!;
    const traceId = tx.hash; // any 44-char hash will do
    await store.insert('transactions', [{ ...tx, trace_id: traceId }]);
    await store.insert('transactions', [tx]); // a late replay of the decode stage's row, without trace_id
    const [t] = await store.query<{ trace_id: string | null; n: string }>(
      'SELECT any(trace_id) AS trace_id, count() AS n FROM transactions FINAL WHERE account = {a:String} AND lt = {lt:UInt64}',
      { a: tx.account, lt: tx.lt },
    );
    expect(t).toEqual({ trace_id: traceId, n: '1' });

    // The newest state of an account that several fixture blocks touch (system accounts of the masterchain).
    const latest = rows.latest_account_states.reduce((a, b) =>
      b.account === a.account && BigInt(b.last_trans_lt) > BigInt(a.last_trans_lt) ? b : a,
    );
    const older = { ...latest, last_trans_lt: (BigInt(latest.last_trans_lt) - 1n).toString(), balance: '1' };
    await store.insert('latest_account_states', [older]);
    const [l] = await store.query<{ balance: string; last_trans_lt: string }>(
      'SELECT balance, last_trans_lt FROM latest_account_states FINAL WHERE account = {a:String}',
      { a: latest.account },
    );
    expect(l).toEqual({ balance: latest.balance, last_trans_lt: latest.last_trans_lt });
  });

  it('rows encoded beforehand (insertEncoded, as decode workers send them) are stored exactly like row objects', async () => {
    const plain = await open(`test_store_obj_${target.kind}_${runId}`);
    const other = await open(`test_store_enc_${target.kind}_${runId}`);
    try {
      await migrate(plain);
      await migrate(other);
      await insertAll(plain, rows);
      for (const t of TABLES) {
        if (rows[t].length === 0) continue;
        const types = await other.columnTypes(t);
        const encoded = encodeRows(rows[t], types);
        expect(encoded, `${t} encodes as TabSeparated`).not.toBeNull();
        if (t !== 'messages') {
          await other.insertEncoded(t, encoded!);
          continue;
        }
        // As the decode stage sends a batch: one encoding per block, several per insert. One row each here, so the
        // insert has more pieces than one gathered write takes (IOV_MAX, 1024).
        const parts = rows[t].map((r) => encodeRows([r], types)!);
        expect(parts.length).toBeGreaterThan(1024);
        await other.insertEncoded(t, parts);
      }
      for (const t of TABLES) {
        const sql = `SELECT * FROM ${latest(t)} ORDER BY ALL`;
        const [a, b] = await Promise.all([plain.query(sql), other.query(sql)]);
        expect(b.length, t).toBe(distinctCount(t, rows));
        expect(b, t).toEqual(a);
      }
      const bad = { columns: ['hash; DROP'], types: ['String'], body: Buffer.from('x\n'), rows: 1 };
      const err = await other.insertEncoded('transactions', bad).catch((e: unknown) => e);
      expect(isRetryable(err)).toBe(false);
      expect((err as Error).message).toMatch(/bad column list/);
      const [one, two] = [encodeRows(rows.blocks.slice(0, 1), await other.columnTypes('blocks'))!, encodeRows(rows.transactions.slice(0, 1), await other.columnTypes('transactions'))!];
      const mixed = await other.insertEncoded('blocks', [one, { ...two, columns: one.columns.slice(0, two.columns.length) }]).catch((e: unknown) => e);
      expect(isRetryable(mixed)).toBe(false);
      expect((mixed as Error).message).toMatch(/different columns/);

      // Every character TabSeparated escapes, alone, doubled, next to each other and to its own escape: read back as
      // written, in a String and a Nullable(String) column.
      const tricky = ['\\', '\t', '\n', '\r', '\0', '\\\\', '\\t', '\\\n', 'a\\\tb\n\r\0c\\', '{"c":"x\\"y\\\\"}', "it's ünïcödé", ''];
      const contents = tricky.map((t, i) => ({ hash: `tricky-${String(i).padStart(2, '0')}`.padEnd(44, '.'), boc: t, decoded: t }));
      await other.insertEncoded('message_contents', encodeRows(contents, await other.columnTypes('message_contents'))!);
      const back = await other.query<{ hash: string; boc: string; decoded: string }>(
        `SELECT hash, boc, decoded FROM message_contents FINAL WHERE startsWith(hash, 'tricky-') ORDER BY hash`,
      );
      expect(back).toEqual(contents);
    } finally {
      for (const s of [plain, other]) {
        await s.command(`DROP DATABASE IF EXISTS ${s.database}`);
        await s.close();
      }
    }
  });

  it('refuses to run when an applied migration file changed', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-migrations-'));
    const other = await open(`test_store_mig_${target.kind}_${runId}`);
    try {
      cpSync(defaultMigrationsDir(), dir, { recursive: true });
      await migrate(other, { dir });
      const file = path.join(dir, '0001_blocks.sql');
      writeFileSync(file, readFileSync(file, 'utf8') + '\n-- edited after being applied\n');
      await expect(migrate(other, { dir })).rejects.toMatchObject({ code: 'MIGRATION_CHECKSUM_MISMATCH', retryable: false });
      writeFileSync(path.join(dir, '0000_late.sql'), 'SELECT 1;\n');
      rmSync(file);
      await expect(migrate(other, { dir })).rejects.toMatchObject({ code: 'MIGRATION_MISSING' });
    } finally {
      await other.command(`DROP DATABASE IF EXISTS ${other.database}`);
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // chdb only: the rule about one data directory per process.
  if (target.kind === 'chdb') it('shares the one chdb engine of the process between stores, and refuses a second data directory', async () => {
    const other = await createStore({ mode: 'embedded', dataDir, database: `test_store_other_${runId}` });
    try {
      // Statements of both stores interleave; each runs in its own database.
      const [a, b] = await Promise.all([store.query<{ d: string }>('SELECT currentDatabase() AS d'), other.query<{ d: string }>('SELECT currentDatabase() AS d')]);
      expect([a[0]!.d, b[0]!.d]).toEqual([store.database, other.database]);
    } finally {
      await other.command(`DROP DATABASE IF EXISTS ${other.database}`);
      await other.close();
    }
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'tonflow-store-other-'));
    try {
      await expect(createStore({ mode: 'embedded', dataDir: elsewhere, database: 'x' })).rejects.toMatchObject({ code: 'STORE_EMBEDDED_PATH_IN_USE' });
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    // The first store is unaffected by the other one closing.
    expect(await store.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  // chdb only: a server runs concurrent HTTP requests anyway; embedded mode has to spread them over sessions.
  if (target.kind === 'chdb') it('runs reads on sessions of their own: never behind a write, in parallel when asked, each keeping its own settings', async () => {
    const sleep = (s: number): string => `SELECT sleep(${s}) AS z`;
    // The default: one read session besides the writer's. A read issued after a long write finishes first.
    const order: string[] = [];
    const write = store.command(sleep(1)).then(() => order.push('write'));
    const read = store.query('SELECT 1 AS one').then(() => order.push('read'));
    await Promise.all([write, read]);
    expect(order).toEqual(['read', 'write']);
    // readConnections 0: everything on the writer's session, in the order issued.
    const single = await createStore({ mode: 'embedded', dataDir, database: store.database, readConnections: 0 });
    try {
      order.length = 0;
      await Promise.all([store.command(sleep(0.5)).then(() => order.push('write')), single.query('SELECT 1 AS one').then(() => order.push('read'))]);
      expect(order).toEqual(['write', 'read']);
    } finally {
      await single.close();
    }

    const wide = await createStore({ mode: 'embedded', dataDir, database: store.database, readConnections: 2 });
    try {
      // Two reads of 0.8 s each, sent together: on two connections both start at once; on one, the second would
      // start only after the first's 0.8 s. Each reports when the server started it (now64 is fixed per query), so
      // this holds however slow the machine is.
      const startedAt = `SELECT toString(toUnixTimestamp64Micro(now64(6))) AS t, sleep(0.8) AS z`;
      const [[x], [y]] = await Promise.all([wide.query<{ t: string }>(startedAt), wide.query<{ t: string }>(startedAt)]);
      expect(Math.abs(Number(x!.t) - Number(y!.t))).toBeLessThan(800_000);

      // A short deadline on each read session (SET on that session) must not stay with the next read there.
      const heavy = 'SELECT count() AS n FROM numbers(100000000000) WHERE sipHash64(number) = 1';
      const timedOut = await Promise.allSettled([wide.query(heavy, {}, { timeoutMs: 200 }), wide.query(heavy, {}, { timeoutMs: 200 })]);
      expect(timedOut.map((r) => (r.status === 'rejected' ? (r.reason as { code?: string }).code : 'fulfilled'))).toEqual(['STORE_TIMEOUT', 'STORE_TIMEOUT']);
      const t0 = performance.now();
      const late = await Promise.all([wide.query<{ z: number }>(sleep(0.5)), wide.query<{ z: number }>(sleep(0.5))]);
      expect(late).toEqual([[{ z: 0 }], [{ z: 0 }]]);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(450);
    } finally {
      await wide.close();
    }
    await expect(createStore({ mode: 'embedded', dataDir, database: store.database, readConnections: -1 })).rejects.toBeInstanceOf(ConfigError);
  });

  it('reads text fields as stored with queryFields, and refuses a row whose value holds a tab', async () => {
    const doc = JSON.stringify({ comment: 'a "quoted"\nline\\with\tescapes, ünïcödé', n: '18446744073709551615' });
    const rows = await store.queryFields('SELECT {k:String} AS k, {doc:String} AS doc UNION ALL SELECT {k2:String}, {doc:String}', 2, {
      k: '0:AB|1',
      k2: '-1:CD|2',
      doc,
    });
    expect(rows.sort()).toEqual([
      ['-1:CD|2', doc],
      ['0:AB|1', doc],
    ]);
    expect(await store.queryFields('SELECT 1 WHERE 0', 1)).toEqual([]);
    await expect(store.queryFields('SELECT {x:String} AS x', 1, { x: 'a\tb' })).rejects.toMatchObject({ code: 'STORE_BAD_FIELDS' });
  });

  it('plans point reads with the previous analyzer exactly where the engine still has it (before ClickHouse 26.9)', async () => {
    const [{ v }] = (await store.query<{ v: string }>('SELECT version() AS v')) as [{ v: string }];
    const [major, minor] = v.split('.').map(Number) as [number, number];
    // chdb 3.4 is ClickHouse 26.7; the CI server 26.9, which has only the current analyzer.
    expect(store.pointReadSettings.includes('enable_analyzer = 0')).toBe(major === 26 && minor < 9);
    expect(store.pointReadSettings).toContain('max_threads = 1');
    // The engine takes them on a point read of a real table.
    const none = await store.query(`SELECT account FROM latest_account_states WHERE account IN {a:Array(String)} SETTINGS ${store.pointReadSettings}`, { a: ['0:00'] });
    expect(none).toEqual([]);
  });

  it('reads a large output (parsed in slices) whole: every row of JSON and of raw fields, multi-byte text intact', async () => {
    const n = 20_000;
    const text = 'é€😀 "q" \\';
    // 64-bit numbers as strings (output_format_json_quote_64bit_integers), the text with its JSON escapes undone.
    const rows = await store.query<{ n: string; s: string; t: string }>(
      'SELECT number AS n, toString(number * 7) AS s, concat({t:String}, repeat(\'x\', number % 50)) AS t FROM numbers({n:UInt32}) ORDER BY n',
      { t: text, n },
    );
    expect(rows).toHaveLength(n);
    expect(rows).toEqual(Array.from({ length: n }, (_, i) => ({ n: String(i), s: String(i * 7), t: text + 'x'.repeat(i % 50) })));
    const fields = await store.queryFields(
      'SELECT toString(number), concat({t:String}, repeat(\'y\', number % 50)) FROM numbers({n:UInt32}) ORDER BY number',
      2,
      { t: text, n },
    );
    expect(fields).toEqual(Array.from({ length: n }, (_, i) => [String(i), text + 'y'.repeat(i % 50)]));
  });

  it('translates ClickHouse failures into retryable and non-retryable errors', async () => {
    await expect(store.query('SELEC 1')).rejects.toMatchObject({ code: 'STORE_SYNTAX_ERROR', retryable: false });
    await expect(store.query('SELECT * FROM no_such_table')).rejects.toMatchObject({ code: 'STORE_UNKNOWN_TABLE', retryable: false });
    await expect(store.insert('blocks', [{ workchain: 'not a number' }])).rejects.toBeInstanceOf(StoreQueryError);
    await expect(store.insert('blocks', [{ no_such_column: 1 }])).rejects.toBeInstanceOf(StoreQueryError);
    const slow = store.query('SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) = 1', {}, { timeoutMs: 300 });
    await expect(slow).rejects.toMatchObject({ code: 'STORE_TIMEOUT', retryable: true });
    // Bound parameters are data, never SQL.
    const [r] = await store.query<{ s: string; n: string }>('SELECT {s:String} AS s, {n:UInt64} AS n', { s: "x'); DROP TABLE blocks; --", n: '18446744073709551615' });
    expect(r).toEqual({ s: "x'); DROP TABLE blocks; --", n: '18446744073709551615' });
  });

  it('upgrades a store written before 0006 in place: the phase columns become the description the decoder builds', async () => {
    const legacy = await open(`${store.database}_legacy`);
    const oldDir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-migrations-0005-'));
    try {
      const all = loadMigrations();
      for (const m of all) if (m.version <= 5) cpSync(path.join(defaultMigrationsDir(), m.file), path.join(oldDir, m.file));
      await migrate(legacy, { dir: oldDir });
      // Every fixture transaction, plus descriptions of the kinds the fixtures lack (storage, split, merge, negfunds
      // bounce, credit with extra currencies, every optional field present), on copies of one fixture transaction.
      const txs = decoded.flatMap((d) => d.transactions.map((tx) => ({ tx, mc: d.rows.blocks[0]!.mc_block_seqno })));
      const base = txs[0]!;
      const variants = syntheticDescriptions().map((description, i) => ({
        tx: { ...base.tx, lt: String(BigInt(base.tx.lt) + 1000n + BigInt(i)), hash: Buffer.alloc(32, i + 1).toString('base64'), description: description as V3Transaction['description'] },
        mc: base.mc,
      }));
      await legacy.insert('transactions', [...txs, ...variants].map(({ tx, mc }) => legacyTransactionRow(tx, mc)));
      const before = await legacy.query<{ n: string }>('SELECT count() AS n FROM transactions');
      // Messages stored before 0010: its message_sides get them (hash and normalized hash), and later inserts too.
      const msgs = decoded.flatMap((d) => d.rows.messages);
      const [early, late] = [msgs.slice(0, 1000), msgs.slice(1000)];
      await legacy.insert('messages', early);

      // A crash after a file's statements but before its record re-runs the whole file: 0006 once (before 0007
      // could start), then 0007 after it had fully run. Both must come out the same.
      const upTo6 = path.join(oldDir, 'upTo6');
      mkdirSync(upTo6);
      for (const m of all) if (m.version <= 6) cpSync(path.join(defaultMigrationsDir(), m.file), path.join(upTo6, m.file));
      const forget = (version: number): Promise<void> =>
        legacy.command('ALTER TABLE schema_migrations DELETE WHERE version = {v:UInt32} SETTINGS mutations_sync = 2', { v: version });
      expect((await migrate(legacy, { dir: upTo6 })).applied).toEqual(['0006_transactions_description.sql']);
      await forget(6);
      expect((await migrate(legacy, { dir: upTo6 })).applied).toEqual(['0006_transactions_description.sql']);
      const upTo7 = path.join(oldDir, 'upTo7');
      mkdirSync(upTo7);
      for (const m of all) if (m.version <= 7) cpSync(path.join(defaultMigrationsDir(), m.file), path.join(upTo7, m.file));
      expect((await migrate(legacy, { dir: upTo7 })).applied).toEqual(['0007_transactions_drop_phase_columns.sql']);
      await forget(7);
      expect((await migrate(legacy, { dir: upTo7 })).applied).toEqual(['0007_transactions_drop_phase_columns.sql']);
      // Then the files after it, as an upgrade to the newest version runs them.
      expect((await migrate(legacy)).applied).toEqual(all.filter((m) => m.version > 7).map((m) => m.file));
      await legacy.insert('messages', late);
      // What the lookup read before 0010: every message row of a hash, and of each message a `message_hash_norms`
      // pair names under its normalized hash.
      const norms = decoded.flatMap((d) => d.rows.message_hash_norms);
      const sides = (rows: typeof msgs): string[] =>
        [
          ...new Set([
            ...rows.map((m) => `${m.msg_hash} ${m.direction} ${m.tx_account} ${m.tx_lt}`),
            ...norms.flatMap((n) =>
              rows.filter((m) => m.msg_hash === n.msg_hash).map((m) => `${n.hash_norm} ${m.direction} ${m.tx_account} ${m.tx_lt}`),
            ),
          ]),
        ].sort();
      const stored = await legacy.query<{ s: string }>(
        "SELECT DISTINCT concat(lookup_hash, ' ', toString(direction), ' ', tx_account, ' ', toString(tx_lt)) AS s FROM message_sides ORDER BY s",
      );
      expect(norms.length).toBeGreaterThan(0);
      // Since 0016 only the external-in ones (no value) of the messages stored after it: message_side_points has the others.
      expect(stored.map((r) => r.s)).toEqual(sides([...early, ...late.filter((m) => m.value === null && m.direction === 'in')]));
      expect(late.some((m) => m.value !== null)).toBe(true);
      // Transactions stored before 0011 are in its account_transactions, once per key.
      const keyed = (sql: string) => legacy.query<{ k: string }>(sql).then((rows) => rows.map((r) => r.k));
      expect(await keyed("SELECT DISTINCT concat(account, ' ', toString(lt), ' ', toString(now)) AS k FROM account_transactions ORDER BY k")).toEqual(
        await keyed("SELECT DISTINCT concat(account, ' ', toString(lt), ' ', toString(now)) AS k FROM transactions ORDER BY k"),
      );
      // And in 0012's account_recent_transactions: each account's 64 newest lts.
      expect(
        await keyed(
          "SELECT concat(account, ' ', arrayStringConcat(arrayMap(x -> toString(bitNot(x)), arrayDistinct(groupArraySortedMerge(64)(newest))), ',')) AS k FROM account_recent_transactions GROUP BY account ORDER BY k",
        ),
      ).toEqual(
        await keyed(
          "SELECT concat(account, ' ', arrayStringConcat(arrayMap(x -> toString(x), arraySlice(arrayReverseSort(groupUniqArray(lt)), 1, 64)), ',')) AS k FROM transactions GROUP BY account ORDER BY k",
        ),
      );
      // And 0015's message_side_points, from the messages stored before it and those after: every side of each internal
      // and external-out message (external ones carry no value), none of an external-in one.
      expect(await keyed("SELECT concat(key, ' ', tx) AS k FROM message_side_points ORDER BY k")).toEqual(
        [...new Set(msgs.filter((m) => m.value !== null || m.direction === 'out').map((m) => `${m.msg_hash}|${m.direction} ${m.tx_account}|${m.tx_lt}`))].sort(),
      );
      expect(msgs.some((m) => m.value === null && m.direction === 'in')).toBe(true);
      // The same columns as a database created at the newest version, and no row lost.
      const columnsNow = await legacy.columnTypes('transactions');
      expect([...columnsNow.entries()]).toEqual([...(await store.columnTypes('transactions')).entries()]);
      expect(await legacy.query<{ n: string }>('SELECT count() AS n FROM transactions')).toEqual(before);
      const got = new Map(
        (await legacy.query<{ hash: string; description: string }>('SELECT hash, description FROM transactions FINAL')).map((r) => [r.hash, r.description]),
      );
      // Byte for byte the JSON the decode stage writes for new rows.
      for (const { tx } of [...txs, ...variants]) expect({ hash: tx.hash, description: got.get(tx.hash) }).toEqual({ hash: tx.hash, description: JSON.stringify(tx.description) });
      expect(await migrate(legacy)).toMatchObject({ applied: [] });
      // A writer of the old version, still running during an upgrade, sends the phase columns only: refused loudly
      // (no offset committed), never stored with an empty description.
      const stale = legacyTransactionRow({ ...base.tx, lt: String(BigInt(base.tx.lt) + 999n) }, base.mc);
      const keep = Object.fromEntries(Object.entries(stale).filter(([k]) => columnsNow.has(k)));
      const refused = await legacy.insert('transactions', [keep]).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Error);
      expect((refused as Error).message).toMatch(/description must be written by the inserter/);
    } finally {
      await legacy.command(`DROP DATABASE IF EXISTS ${legacy.database}`);
      await legacy.close();
      rmSync(oldDir, { recursive: true, force: true });
    }
  });

  it('0028 rewrites latest_account_states with 64 KiB granules: every row kept, the projection too, and a re-run at any statement ends the same', async () => {
    const db = await open(`${store.database}_granules`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tonflow-migrations-0027-'));
    try {
      const all = loadMigrations();
      const m28 = all.find((m) => m.version === 28)!;
      for (const m of all) if (m.version <= 27) cpSync(path.join(defaultMigrationsDir(), m.file), path.join(dir, m.file));
      await migrate(db, { dir });
      // The fixtures' states, and an older version of one account that a FINAL read must not show.
      const states = rows.latest_account_states;
      expect(states.length).toBeGreaterThan(10);
      const older = { ...states[0]!, last_trans_lt: String(BigInt(states[0]!.last_trans_lt) - 1n), balance: '1' };
      await db.insert('latest_account_states', [...states, older]);
      const snapshot = (): Promise<unknown[]> => db.query('SELECT * FROM latest_account_states FINAL ORDER BY account');
      const createQuery = async (): Promise<string> =>
        (await db.query<{ q: string }>("SELECT create_table_query AS q FROM system.tables WHERE database = currentDatabase() AND name = 'latest_account_states'"))[0]!.q;
      const copies = async (): Promise<number> =>
        (await db.query<{ name: string }>("SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'latest\\_account\\_states\\_%'")).length;
      const before = await snapshot();
      expect(before).toHaveLength(distinctCount('latest_account_states', rows));
      expect(await createQuery()).not.toMatch(/index_granularity_bytes = 65536/);

      // A crash after each statement of 0028 (before its record), then the migrator running the whole file again.
      for (let crashAfter = 1; crashAfter <= m28.statements.length; crashAfter++) {
        for (const sql of m28.statements.slice(0, crashAfter)) await db.command(sql);
        await db.command('ALTER TABLE schema_migrations DELETE WHERE version = 28 SETTINGS mutations_sync = 2');
        expect((await migrate(db)).applied).toEqual([m28.file]);
        expect(await snapshot()).toEqual(before);
        expect(await copies()).toBe(0);
        // One part: a point read costs a granule in every part, so the copy must not leave two.
        const [parts] = await db.query<{ n: string }>(
          "SELECT count() AS n FROM system.parts WHERE active AND database = currentDatabase() AND table = 'latest_account_states'",
        );
        expect(parts!.n).toBe('1');
        const q = await createQuery();
        expect(q).toMatch(/index_granularity_bytes = 65536/);
        expect(q).toMatch(/PROJECTION by_balance/);
        expect(q).toMatch(/ReplacingMergeTree\(last_trans_lt\)/);
      }
      // The same columns as a database created at the newest version; writers and the balance order still work.
      expect([...(await db.columnTypes('latest_account_states')).entries()]).toEqual([...(await store.columnTypes('latest_account_states')).entries()]);
      const richer = { ...states[1]!, last_trans_lt: '9000000000000000000', balance: '1000000000000000000000000' };
      await db.insert('latest_account_states', [richer]);
      const [top] = await db.query<{ account: string; balance: string }>('SELECT account, balance FROM latest_account_states FINAL ORDER BY balance DESC LIMIT 1');
      expect(top).toEqual({ account: richer.account, balance: richer.balance });
    } finally {
      await db.command(`DROP DATABASE IF EXISTS ${db.database}`);
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  if (target.kind === 'server') it('stores into a separate server process, as its own HTTP interface shows', async () => {
    const [v] = await store.query<{ version: string; db: string }>('SELECT version() AS version, currentDatabase() AS db');
    expect(v!.db).toBe(store.database);
    // A modern engine: the migrations need Map columns and projections on ReplacingMergeTree.
    expect(Number(v!.version.split('.')[0])).toBeGreaterThanOrEqual(24);
    // Asked over plain HTTP, bypassing the store adapter: the rows are in the server.
    const sql = `SELECT count() FROM ${store.database}.transactions FINAL FORMAT TabSeparated`;
    const res = await fetch(`${target.url}/?query=${encodeURIComponent(sql)}`);
    expect(res.status).toBe(200);
    expect(Number((await res.text()).trim())).toBe(distinctCount('transactions', rows));
  });
}

describeFixtures('store on chdb: migrations, idempotent inserts, round trip', () => storeSuite({ kind: 'chdb' }));

describeClickHouse('store on a ClickHouse server (--clickhouse URL)', (url) => {
  describeFixtures('migrations, idempotent inserts, round trip', () => storeSuite({ kind: 'server', url }));
});

describe('store config and error translation (no server needed)', () => {
  it('splits a server URL into origin and credentials and validates it', () => {
    expect(serverClientOptions({ mode: 'server', url: 'https://ingest:s%3Acret@ch.example:8443', database: 'tonflow' })).toEqual({
      url: 'https://ch.example:8443',
      username: 'ingest',
      password: 's:cret',
      database: 'tonflow',
    });
    expect(serverClientOptions({ mode: 'server', url: 'http://u:p@ch:8123/', database: 'db', username: 'reader', password: 'pw' })).toEqual({
      url: 'http://ch:8123',
      username: 'reader',
      password: 'pw',
      database: 'db',
    });
    expect(serverClientOptions({ mode: 'server', url: 'http://ch:8123', database: 'db' })).toMatchObject({ username: 'default', password: '' });
    const bad = (): unknown => serverClientOptions({ mode: 'server', url: 'ftp://x:1/tonflow?x=1', database: 'bad-name' });
    expect(bad).toThrow(ConfigError);
    try {
      bad();
    } catch (e) {
      expect((e as ConfigError).issues).toHaveLength(4);
    }
    expect(() => serverClientOptions({ mode: 'server', url: 'not a url', database: 'db' })).toThrow(ConfigError);
    expect(describeTarget({ mode: 'server', url: 'http://u:secret@ch:8123', database: 'db' })).toBe('http://ch:8123/');
  });

  it('rejects a database name that is not a plain identifier before touching any engine', async () => {
    await expect(createStore({ mode: 'embedded', dataDir: os.tmpdir(), database: 'x; DROP' })).rejects.toBeInstanceOf(ConfigError);
    await expect(createStore({ mode: 'server', url: 'http://127.0.0.1:1', database: 'a.b' })).rejects.toBeInstanceOf(ConfigError);
  });

  it('classifies errors by ClickHouse code and network failure', () => {
    const ch = (code: string, type: string): Error => Object.assign(new Error(`${type} happened`), { code, type });
    const cases: Array<[unknown, string, boolean]> = [
      [ch('62', 'SYNTAX_ERROR'), 'STORE_SYNTAX_ERROR', false],
      [ch('53', 'TYPE_MISMATCH'), 'STORE_TYPE_MISMATCH', false],
      [ch('159', 'TIMEOUT_EXCEEDED'), 'STORE_TIMEOUT', true],
      [ch('252', 'TOO_MANY_PARTS'), 'STORE_OVERLOADED', true],
      [ch('202', 'TOO_MANY_SIMULTANEOUS_QUERIES'), 'STORE_OVERLOADED', true],
      [ch('242', 'TABLE_IS_READ_ONLY'), 'STORE_UNAVAILABLE', true],
      [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' }), 'STORE_UNAVAILABLE', true],
      [new Error('Timeout error.'), 'STORE_TIMEOUT', true],
      [new Error('something odd'), 'STORE_FAILED', false],
    ];
    for (const [e, code, retryable] of cases) {
      const t = translateStoreError(e, { operation: 'test' });
      expect({ code: t.code, retryable: isRetryable(t), cause: t.cause }).toEqual({ code, retryable, cause: e });
      expect(t).toBeInstanceOf(retryable ? StoreUnavailableError : StoreQueryError);
    }
  });

  it('knows which ClickHouse versions take enable_analyzer = 0', () => {
    expect(hasLegacyAnalyzer('26.7.2.1')).toBe(true);
    expect(hasLegacyAnalyzer('24.3.1.1')).toBe(true);
    expect(hasLegacyAnalyzer('24.2.9.1')).toBe(false);
    expect(hasLegacyAnalyzer('26.9.2.1')).toBe(false);
    expect(hasLegacyAnalyzer('27.1.1.1')).toBe(false);
    expect(hasLegacyAnalyzer('not a version')).toBe(false);
  });

  it('splits migration files into statements without being fooled by comments', () => {
    expect(splitStatements('-- a; comment;\nCREATE TABLE a (x UInt8) ENGINE = Memory;\n\n-- b\nCREATE TABLE b (y String) ENGINE = Memory;')).toEqual([
      'CREATE TABLE a (x UInt8) ENGINE = Memory',
      'CREATE TABLE b (y String) ENGINE = Memory',
    ]);
  });
});
