import { encodeTransactionDocument } from '../../shared/contracts/transaction-document.js';
import { NonRetryableError } from '../../shared/runtime/errors.js';
import { type AccountStateRow, accountStates } from '../../shared/store/tables/account-states.js';
import { type BlockRow, blocks } from '../../shared/store/tables/blocks.js';
import { type CellRow, cells } from '../../shared/store/tables/cells.js';
import { POINT_TABLES } from '../../shared/store/tables/index.js';
import { type LatestAccountStateRow, latestAccountStates } from '../../shared/store/tables/latest-account-states.js';
import { type MessageContentRow, messageContents } from '../../shared/store/tables/message-contents.js';
import { type MessageHashNormRow, messageHashNorms } from '../../shared/store/tables/message-hash-norms.js';
import { type MessageRow, messages } from '../../shared/store/tables/messages.js';
import { type KeyBlockConfigRow, keyBlockConfigs } from '../../shared/store/tables/key-block-configs.js';
import { type ShardStateRow, shardState } from '../../shared/store/tables/shard-state.js';
import { type TransactionBocRow, transactionBocs } from '../../shared/store/tables/transaction-bocs.js';
import { type TransactionDocumentRow, transactionDocuments } from '../../shared/store/tables/transaction-documents.js';
import { type TransactionHashPointRow, transactionHashPoints } from '../../shared/store/tables/transaction-hash-points.js';
import { type TransactionRow, transactions } from '../../shared/store/tables/transactions.js';
import type { BlockHeaderHashes, V3Block } from '../../shared/ton/records/block.js';
import type { V3Message, V3MessageContent } from '../../shared/ton/records/message.js';
import type { V3AccountState, V3BlockId, V3Transaction } from '../../shared/ton/records/transaction.js';
import { type SnapshotAccount, readSnapshotAccount } from '../../shared/ton/state-snapshot.js';

export type {
  AccountStateRow,
  BlockRow,
  CellRow,
  LatestAccountStateRow,
  MessageContentRow,
  MessageHashNormRow,
  MessageRow,
  KeyBlockConfigRow,
  ShardStateRow,
  TransactionBocRow,
  TransactionDocumentRow,
  TransactionHashPointRow,
  TransactionRow,
};

/**
 * Decoder records (TON Center v3 shapes) -> rows of the store's tables (row types from their modules in
 * shared/store/tables). Pure: no I/O, no clock, so a replayed block yields byte-identical rows and the
 * ReplacingMergeTree tables stay duplicate-free.
 *
 * Encodings (the JSONEachRow input ClickHouse parses): u64 and wider as decimal strings, shard ids as the decimal
 * of their unsigned value, hashes and addresses exactly as the records carry them. Columns that are projection
 * keys use sentinels instead of NULL ('' for a missing address, 0 for a missing created_lt/created_at); see
 * 0003_messages.sql for why.
 */

/** Rows of one block, keyed by table name: insert each array into the table of its key. */
export interface StoreRows {
  blocks: BlockRow[];
  shard_state: ShardStateRow[];
  transactions: TransactionRow[];
  messages: MessageRow[];
  message_contents: MessageContentRow[];
  message_hash_norms: MessageHashNormRow[];
  account_states: AccountStateRow[];
  latest_account_states: LatestAccountStateRow[];
  transaction_documents: TransactionDocumentRow[];
  transaction_hash_points: TransactionHashPointRow[];
  transaction_bocs: TransactionBocRow[];
  key_block_configs: KeyBlockConfigRow[];
  cells: CellRow[];
}

/** Every table {@link toRows} fills, in the order its rows are listed in StoreRows. */
export const STORE_TABLES = [
  blocks.name,
  shardState.name,
  transactions.name,
  messages.name,
  messageContents.name,
  messageHashNorms.name,
  accountStates.name,
  latestAccountStates.name,
  // Last: a point row names rows of the tables above (0008_transaction_points.sql, 0009_transaction_documents.sql).
  transactionDocuments.name,
  transactionHashPoints.name,
  transactionBocs.name,
  keyBlockConfigs.name,
  cells.name,
] as const satisfies ReadonlyArray<keyof StoreRows>;

export { POINT_TABLES };

/** What {@link toRows} maps: `decodeBlock()`'s output, plus the shard blocks a masterchain block commits. */
export interface RowsInput {
  block: V3Block;
  transactions: readonly V3Transaction[];
  /**
   * For a masterchain block: the top shard blocks it commits (McBlockExtra shard_hashes, `decodeBlock().shards`);
   * they become its `shard_state`. Ignored for shard blocks.
   */
  shards?: readonly V3BlockId[];
  /** Code/data BOCs of the states the block's state update holds whole, by state hash (`decodeBlock().stateBocs`). */
  stateBocs?: ReadonlyMap<string, { code_boc: string | null; data_boc: string | null }>;
  /** The state root and previous block hashes (`decodeBlock().header`). */
  header: BlockHeaderHashes;
  /** Each transaction's BOC, parallel to `transactions` (`decodeBlock().transactionBocs`); absent: none written. */
  transactionBocs?: readonly string[];
  /** The hashes of `shards`, parallel to it (`decodeBlock().shardHashes`); absent: written as ''. */
  shardHashes?: ReadonlyArray<{ root_hash: string; file_hash: string }>;
  /** A key block's config dictionary BOC (`decodeBlock().config`). */
  config?: string | null;
  /** The whole cells of the block's touched account states (`decodeBlock().cells`; 0025_cells.sql); absent: none written. */
  cells?: readonly CellRow[];
}

export interface RowsOptions {
  /**
   * Also fill `transaction_documents` / `transaction_hash_points` (0009_transaction_documents.sql,
   * 0008_transaction_points.sql; the configuration's `TONFLOW_STORE_POINT_READS`, on by default). Absent: false,
   * those stay empty.
   */
  points?: boolean;
  /**
   * Seqno of the masterchain block that committed this block, null when unknown (a file replay of a lone shard
   * block). A masterchain block is its own: null means its seqno, any other value is a caller bug and throws.
   */
  mcSeqno: number | null;
}

/** Maps one decoded block to the rows of every table it touches. Deterministic: same input, same rows. */
export function toRows(input: RowsInput, opts: RowsOptions): StoreRows {
  const { block } = input;
  if (opts.mcSeqno !== null && (!Number.isInteger(opts.mcSeqno) || opts.mcSeqno < 0 || opts.mcSeqno > 0xffffffff)) {
    throw new NonRetryableError('ROWS_BAD_MC_SEQNO', `toRows: mcSeqno ${opts.mcSeqno} is not a uint32`);
  }
  if (block.workchain === -1 && opts.mcSeqno !== null && opts.mcSeqno !== block.seqno) {
    throw new NonRetryableError('ROWS_BAD_MC_SEQNO', `toRows: masterchain block ${block.seqno} given mcSeqno ${opts.mcSeqno}`);
  }
  const mcSeqno = block.workchain === -1 ? block.seqno : opts.mcSeqno;

  const out: StoreRows = {
    blocks: [blockRow(block, mcSeqno, input.header)],
    shard_state:
      block.workchain === -1
        ? (input.shards ?? []).map((s, i) => ({
            mc_seqno: block.seqno,
            workchain: s.workchain,
            shard: shardDecimal(s.shard),
            seqno: s.seqno,
            root_hash: input.shardHashes?.[i]?.root_hash ?? '',
            file_hash: input.shardHashes?.[i]?.file_hash ?? '',
          }))
        : [],
    transactions: [],
    messages: [],
    message_contents: [],
    message_hash_norms: [],
    account_states: [],
    latest_account_states: [],
    transaction_documents: [],
    transaction_hash_points: [],
    transaction_bocs: [],
    key_block_configs: block.workchain === -1 && input.config ? [{ mc_seqno: block.seqno, config_boc: input.config }] : [],
    cells: input.cells ? input.cells.map((c) => ({ hash: c.hash, record: c.record })) : [],
  };

  const contents = new Map<string, MessageContentRow>();
  const states = new Map<string, AccountStateRow>();
  const latest = new Map<string, LatestAccountStateRow>();
  // Documents are built once the block's contents and states are all known.
  const documents: Array<{ row: TransactionRow; first: number; end: number }> = [];

  for (const [i, tx] of input.transactions.entries()) {
    const row = transactionRow(tx, mcSeqno);
    out.transactions.push(row);
    const boc = input.transactionBocs?.[i];
    if (boc !== undefined) out.transaction_bocs.push({ account: tx.account, lt: tx.lt, boc });
    const first = out.messages.length;
    if (tx.in_msg) pushMessage(out, contents, tx, 'in', tx.in_msg);
    for (const m of tx.out_msgs) pushMessage(out, contents, tx, 'out', m);
    addState(states, tx.account, tx.prev_trans_lt, tx.account_state_before, input.stateBocs);
    addState(states, tx.account, tx.lt, tx.account_state_after, input.stateBocs);

    if (opts.points) {
      documents.push({ row, first, end: out.messages.length });
      out.transaction_hash_points.push({ hash: tx.hash, account: tx.account, lt: tx.lt });
    }

    // The newest transaction of the account in this block decides its latest state; a state the decoder could
    // not recover (hash only) is skipped rather than written as an unknown balance over a known one.
    const after = tx.account_state_after;
    const prev = latest.get(tx.account);
    if (!prev || BigInt(prev.last_trans_lt) < BigInt(tx.lt)) {
      if (after.balance === null || after.account_status === null) {
        latest.delete(tx.account);
      } else {
        latest.set(tx.account, {
          account: tx.account,
          account_state_hash: after.hash,
          last_trans_lt: tx.lt,
          last_trans_hash: tx.hash,
          last_trans_now: tx.now,
          ...stateColumns(after.hash, after.balance, after.account_status, after, input.stateBocs),
        });
      }
    }
  }
  out.transaction_documents = documents.map((d) => documentRow(d.row, out.messages.slice(d.first, d.end), contents, states));
  out.message_contents = [...contents.values()];
  out.account_states = [...states.values()];
  out.latest_account_states = [...latest.values()];
  return out;
}

/** Upper-case hex shard id (as records carry it) -> decimal of the unsigned 64-bit value (the UInt64 column). */
export function shardDecimal(hex: string): string {
  if (!/^[0-9A-Fa-f]{1,16}$/.test(hex)) {
    throw new NonRetryableError('ROWS_BAD_SHARD', `toRows: shard ${JSON.stringify(hex)} is not a 64-bit hex id`);
  }
  return BigInt('0x' + hex).toString();
}

function blockRow(b: V3Block, mcSeqno: number | null, header: BlockHeaderHashes): BlockRow {
  return {
    workchain: b.workchain,
    shard: shardDecimal(b.shard),
    seqno: b.seqno,
    root_hash: b.root_hash,
    file_hash: b.file_hash,
    mc_block_seqno: mcSeqno,
    global_id: b.global_id,
    version: b.version,
    after_merge: b.after_merge,
    before_split: b.before_split,
    after_split: b.after_split,
    want_merge: b.want_merge,
    want_split: b.want_split,
    key_block: b.key_block,
    vert_seqno_incr: b.vert_seqno_incr,
    flags: b.flags,
    gen_utime: Number(b.gen_utime),
    start_lt: b.start_lt,
    end_lt: b.end_lt,
    validator_list_hash_short: b.validator_list_hash_short,
    gen_catchain_seqno: b.gen_catchain_seqno,
    min_ref_mc_seqno: b.min_ref_mc_seqno,
    prev_key_block_seqno: b.prev_key_block_seqno,
    vert_seqno: b.vert_seqno,
    master_ref_seqno: b.master_ref_seqno,
    rand_seed: b.rand_seed,
    created_by: b.created_by,
    tx_count: b.tx_count,
    prev_blocks: b.prev_blocks.map((p) => ({ workchain: p.workchain, shard: shardDecimal(p.shard), seqno: p.seqno })),
    state_root_hash: header.state_root_hash,
    prev_block_hashes: header.prev_blocks,
  };
}

/** One transaction's `transactions` row. */
export function transactionRow(tx: V3Transaction, mcSeqno: number | null): TransactionRow {
  return {
    account: tx.account,
    lt: tx.lt,
    hash: tx.hash,
    now: tx.now,
    mc_block_seqno: mcSeqno,
    block_workchain: tx.block_ref.workchain,
    block_shard: shardDecimal(tx.block_ref.shard),
    block_seqno: tx.block_ref.seqno,
    trace_id: tx.trace_id ?? null,
    prev_trans_hash: tx.prev_trans_hash,
    prev_trans_lt: tx.prev_trans_lt,
    orig_status: tx.orig_status,
    end_status: tx.end_status,
    total_fees: tx.total_fees,
    total_fees_extra_currencies: tx.total_fees_extra_currencies,
    account_state_hash_before: tx.account_state_before.hash,
    account_state_hash_after: tx.account_state_after.hash,
    description: JSON.stringify(tx.description),
  };
}

/** `"0x%08x"` -> the signed int32 ClickHouse stores (opcodes are filtered as signed 32-bit decimals too). */
function opcodeInt32(op: string | null): number | null {
  if (op === null) return null;
  return Number.parseInt(op.slice(2), 16) | 0;
}

function pushMessage(
  out: StoreRows,
  contents: Map<string, MessageContentRow>,
  tx: V3Transaction,
  direction: 'in' | 'out',
  m: V3Message,
): void {
  out.messages.push({
    tx_account: tx.account,
    tx_lt: tx.lt,
    tx_hash: tx.hash,
    direction,
    msg_hash: m.hash,
    hash_norm: m.hash_norm ?? null,
    source: m.source ?? '',
    destination: m.destination ?? '',
    value: m.value,
    value_extra_currencies: m.value_extra_currencies ?? {},
    fwd_fee: m.fwd_fee,
    ihr_fee: m.ihr_fee,
    import_fee: m.import_fee,
    extra_flags: m.extra_flags,
    created_lt: m.created_lt ?? '0',
    created_at: m.created_at === null ? 0 : Number(m.created_at),
    opcode: opcodeInt32(m.opcode),
    ihr_disabled: m.ihr_disabled,
    bounce: m.bounce,
    bounced: m.bounced,
    body_hash: m.message_content.hash,
    init_state_hash: m.init_state ? m.init_state.hash : null,
  });
  if (m.hash_norm !== undefined && direction === 'in') out.message_hash_norms.push({ hash_norm: m.hash_norm, msg_hash: m.hash });
  addContent(contents, m.message_content);
  if (m.init_state) addContent(contents, m.init_state);
}

/** The transaction document of `row` (0009_transaction_documents.sql): its message rows, their contents and states. */
function documentRow(
  row: TransactionRow,
  messages: readonly MessageRow[],
  contents: ReadonlyMap<string, MessageContentRow>,
  states: ReadonlyMap<string, AccountStateRow>,
): TransactionDocumentRow {
  const docContents: MessageContentRow[] = [];
  const add = (hash: string | null): void => {
    const c = hash === null ? undefined : contents.get(hash);
    if (c && !docContents.includes(c)) docContents.push(c);
  };
  for (const m of messages) {
    add(m.body_hash);
    add(m.init_state_hash);
  }
  const docStates: AccountStateRow[] = [];
  for (const hash of new Set([row.account_state_hash_before, row.account_state_hash_after])) {
    const st = states.get(hash);
    if (st) docStates.push(st);
  }
  return { key: `${row.account}|${row.lt}`, doc: encodeTransactionDocument({ tx: row, messages, contents: docContents, states: docStates }) };
}

function addContent(contents: Map<string, MessageContentRow>, c: V3MessageContent): void {
  if (contents.has(c.hash)) return;
  contents.set(c.hash, { hash: c.hash, boc: c.body, decoded: c.decoded === null ? null : JSON.stringify(c.decoded) });
}

function addState(
  states: Map<string, AccountStateRow>,
  account: string,
  lastTransLt: string,
  s: V3AccountState,
  bocs: RowsInput['stateBocs'],
): void {
  // Hash-only states (the decoder could not read them from the state update) carry nothing worth a row.
  if (s.balance === null || s.account_status === null || states.has(s.hash)) return;
  states.set(s.hash, {
    hash: s.hash,
    account,
    last_trans_lt: lastTransLt,
    ...stateColumns(s.hash, s.balance, s.account_status, s, bocs),
  });
}

/** The columns `account_states` and `latest_account_states` share, from a state the decoder read in full. */
function stateColumns(hash: string, balance: string, status: NonNullable<V3AccountState['account_status']>, s: V3AccountState, bocs: RowsInput['stateBocs']) {
  const b = bocs?.get(hash);
  return {
    balance,
    extra_currencies: s.extra_currencies ?? {},
    status,
    frozen_hash: s.frozen_hash,
    data_hash: s.data_hash,
    code_hash: s.code_hash,
    data_boc: b?.data_boc ?? null,
    code_boc: b?.code_boc ?? null,
  };
}

/** The tables a state snapshot fills (shared/contracts/account-states.ts): rows of {@link accountStatesToRows}. */
export type StateRows = Pick<StoreRows, 'account_states' | 'latest_account_states' | 'cells'>;

/**
 * Rows of a source's state snapshot chunk: each account's state by its hash, its latest state (versioned by its
 * last transaction's lt like a block's, so a newer block state wins whichever is stored first), and its whole cells.
 * Code and data come whole with a snapshot, so both BOCs are filled. Throws StateSnapshotError (non-retryable: the
 * message is dead-lettered) on an account that does not read.
 */
export function accountStatesToRows(accounts: readonly SnapshotAccount[]): StateRows {
  const out: StateRows = { account_states: [], latest_account_states: [], cells: [] };
  const cells = new Set<string>();
  accounts.forEach((entry, i) => {
    const a = readSnapshotAccount(entry, `account-state message: accounts[${i}]`);
    const s = a.state;
    const columns = {
      balance: s.balance,
      extra_currencies: s.extra_currencies ?? {},
      status: s.account_status,
      frozen_hash: s.frozen_hash,
      data_hash: s.data_hash,
      code_hash: s.code_hash,
      data_boc: a.data_boc,
      code_boc: a.code_boc,
    };
    out.account_states.push({ hash: s.hash, account: a.address, last_trans_lt: a.last_trans_lt, ...columns });
    out.latest_account_states.push({
      account: a.address,
      account_state_hash: s.hash,
      last_trans_lt: a.last_trans_lt,
      last_trans_hash: a.last_trans_hash,
      last_trans_now: a.last_paid,
      ...columns,
    });
    for (const c of a.cells) {
      if (cells.has(c.hash)) continue;
      cells.add(c.hash);
      out.cells.push({ hash: c.hash, record: Buffer.from(c.record).toString('base64') });
    }
  });
  return out;
}
