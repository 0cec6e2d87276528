import type { BlockRow } from '../../../shared/store/tables/blocks.js';
import { decodedOpcode } from '../../../shared/ton/records/opcodes.js';
import type {
  WireAccountState,
  WireAccountStatus,
  WireBlock,
  WireBlockId,
  WireMessage,
  WireMessageContent,
  WireTransaction,
  WireTransactionDescr,
} from '../../../shared/ton/records/wire.js';

/**
 * Store rows (JSONEachRow of the tables in shared/store/migrations, typed by their modules in shared/store/tables where
 * a read returns whole rows; 64-bit integers as strings) → TON Center's
 * wire records. The inverse of services/indexer/rows.ts: sentinels become null again ('' addresses, 0
 * created_lt/created_at), shards print as upper-case unpadded hex, and the TransactionDescr is the decoder's own
 * JSON (0006_transactions_description.sql).
 */

export type Row = Record<string, unknown>;

/** Listing order of a request's `sort` (api-v3.md): by lt (or utime), ascending or descending. */
export type Sort = 'asc' | 'desc';

/** A message side a request asks for (`direction`): `unmatched` for a value that names neither, which matches nothing. */
export type Direction = 'in' | 'out' | 'unmatched';

/** TL-B AccountStatus as TON Center names it. */
export type AccountStatus = WireAccountStatus;
/** The TransactionDescr record (shared/ton/records/wire.ts). */
export type Description = WireTransactionDescr;

const MC_SHARD = '8000000000000000';

/** UInt64 shard column (decimal) → upper-case hex without padding. */
export function shardHex(decimal: unknown): string {
  return BigInt(String(decimal)).toString(16).toUpperCase();
}

/** Orders two unsigned 64-bit decimals as the store returns them (no sign, no leading zeros) without parsing them. */
export function compareU64(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** `items` in lists by `key`, each list in the order of `items`, each item mapped by `value`. */
export function groupBy<T, V = T>(items: Iterable<T>, key: (item: T) => string, value?: (item: T) => V): Map<string, V[]> {
  const out = new Map<string, V[]>();
  for (const item of items) {
    const k = key(item);
    let list = out.get(k);
    if (!list) out.set(k, (list = []));
    list.push(value ? value(item) : (item as unknown as V));
  }
  return out;
}

const str = (v: unknown): string => String(v);
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number => Number(v);

/** The wire records (shared/ton/records/wire.ts): one definition of the v3 shapes. */
export type BlockIdRecord = WireBlockId;
export type BlockRecord = WireBlock;

/** The hashes of a `blocks` row that only the v2 operations print (0014_blocks_header_hashes.sql): '' / [] when unknown. */
export interface BlockHeaderHashes {
  state_root_hash: string;
  prev_blocks: Array<{ root_hash: string; file_hash: string }>;
}

export function headerHashesFromRow(r: BlockRow): BlockHeaderHashes {
  const prev = (r.prev_block_hashes as Array<Record<string, unknown>> | null | undefined) ?? [];
  return {
    state_root_hash: typeof r.state_root_hash === 'string' ? r.state_root_hash : '',
    prev_blocks: prev.map((p) => ({ root_hash: str(p.root_hash), file_hash: str(p.file_hash) })),
  };
}

export function blockFromRow(r: BlockRow): BlockRecord {
  const prev = (r.prev_blocks as Array<Record<string, unknown>> | null) ?? [];
  return {
    workchain: num(r.workchain),
    shard: shardHex(r.shard),
    seqno: num(r.seqno),
    root_hash: str(r.root_hash),
    file_hash: str(r.file_hash),
    global_id: num(r.global_id),
    version: num(r.version),
    after_merge: r.after_merge === true,
    before_split: r.before_split === true,
    after_split: r.after_split === true,
    want_merge: r.want_merge === true,
    want_split: r.want_split === true,
    key_block: r.key_block === true,
    vert_seqno_incr: r.vert_seqno_incr === true,
    flags: num(r.flags),
    gen_utime: str(r.gen_utime),
    start_lt: str(r.start_lt),
    end_lt: str(r.end_lt),
    // int32 on the wire (ton-index-go's Block, tonlib's blocks.header), so hashes from 2^31 up are negative.
    validator_list_hash_short: num(r.validator_list_hash_short) | 0,
    gen_catchain_seqno: num(r.gen_catchain_seqno),
    min_ref_mc_seqno: num(r.min_ref_mc_seqno),
    prev_key_block_seqno: num(r.prev_key_block_seqno),
    vert_seqno: num(r.vert_seqno),
    // Rows written before the decoder printed 0 for a masterchain block hold NULL; the wire type is int (§1.2).
    master_ref_seqno: r.master_ref_seqno === null ? 0 : num(r.master_ref_seqno),
    rand_seed: str(r.rand_seed),
    created_by: str(r.created_by),
    tx_count: num(r.tx_count),
    masterchain_block_ref: r.mc_block_seqno === null ? null : { workchain: -1, shard: MC_SHARD, seqno: num(r.mc_block_seqno) },
    prev_blocks: prev.map((p) => ({ workchain: num(p.workchain), shard: shardHex(p.shard), seqno: num(p.seqno) })),
  };
}

export type ContentRecord = WireMessageContent;

/** A stored message: as decoded, plus the two sides `/messages` fills; the content may be missing from the store. */
export type MessageRecord = WireMessage;

/** Message bodies and init states by cell hash (`message_contents`). */
export type Contents = ReadonlyMap<string, ContentRecord>;

export function contentFromRow(r: Row): ContentRecord {
  return { hash: str(r.hash), body: str(r.boc), decoded: r.decoded === null || r.decoded === undefined ? null : (JSON.parse(str(r.decoded)) as Record<string, unknown>) };
}

function content(hash: unknown, contents: Contents): ContentRecord | null {
  if (hash === null || hash === undefined) return null;
  // A body row that is missing (never written) still names its hash: TON Center prints what it has.
  return contents.get(str(hash)) ?? { hash: str(hash), body: '', decoded: null };
}

/** `"0x%08x"` of the store's signed int32. */
export function opcodeHex(op: number): string {
  return '0x' + (op >>> 0).toString(16).padStart(8, '0');
}

/** A `messages` row (one side of a message) → Message record; `txHashes` adds /messages' in/out tx hashes. */
export function messageFromRow(r: Row, contents: Contents, txHashes?: { in?: unknown; out?: unknown }): MessageRecord {
  const opcode = r.opcode === null || r.opcode === undefined ? null : num(r.opcode);
  const value = strOrNull(r.value);
  const m: MessageRecord = {
    hash: str(r.msg_hash),
    source: r.source === '' ? null : str(r.source),
    destination: r.destination === '' ? null : str(r.destination),
    value,
    value_extra_currencies: value === null ? null : ((r.value_extra_currencies as Record<string, string>) ?? {}),
    fwd_fee: strOrNull(r.fwd_fee),
    ihr_fee: strOrNull(r.ihr_fee),
    created_lt: r.created_lt === '0' || r.created_lt === 0 ? null : str(r.created_lt),
    created_at: r.created_at === 0 || r.created_at === '0' ? null : str(r.created_at),
    opcode: opcode === null ? null : opcodeHex(opcode),
    decoded_opcode: opcode === null ? null : decodedOpcode(opcode),
    ihr_disabled: (r.ihr_disabled as boolean | null) ?? null,
    bounce: (r.bounce as boolean | null) ?? null,
    bounced: (r.bounced as boolean | null) ?? null,
    import_fee: strOrNull(r.import_fee),
    extra_flags: strOrNull(r.extra_flags),
    message_content: content(r.body_hash, contents),
    init_state: content(r.init_state_hash, contents),
  };
  if (txHashes) {
    if (txHashes.in !== undefined && txHashes.in !== null && txHashes.in !== '') m.in_msg_tx_hash = str(txHashes.in);
    if (txHashes.out !== undefined && txHashes.out !== null && txHashes.out !== '') m.out_msg_tx_hash = str(txHashes.out);
  }
  if (r.hash_norm !== null && r.hash_norm !== undefined) m.hash_norm = str(r.hash_norm);
  // JSON key order as TON Center: the tx hashes and hash_norm follow the fields above.
  if (txHashes) {
    const { message_content, init_state, hash_norm, ...head } = m;
    return { ...head, message_content, init_state, ...(hash_norm === undefined ? {} : { hash_norm }) };
  }
  return m;
}

export type AccountStateRecord = WireAccountState;

/** `account_states` rows by state hash. */
export type States = ReadonlyMap<string, Row>;

/** The AccountState inside a transaction: the full row when the store has it, else only the hash. */
export function accountStateRecord(hash: string, states: States): AccountStateRecord {
  const s = states.get(hash);
  if (!s) return { hash, balance: null, extra_currencies: null, account_status: null, frozen_hash: null, data_hash: null, code_hash: null };
  return {
    hash,
    balance: str(s.balance),
    extra_currencies: (s.extra_currencies as Record<string, string>) ?? {},
    account_status: str(s.status) as AccountStatus,
    frozen_hash: strOrNull(s.frozen_hash),
    data_hash: strOrNull(s.data_hash),
    code_hash: strOrNull(s.code_hash),
  };
}

/**
 * TransactionDescr from the `description` column, the JSON text of the decoder's record
 * (0006_transactions_description.sql), or from a transaction document, which holds it parsed
 * (shared/contracts/transaction-document.ts; the oldest ones hold the text).
 */
export function descriptionFromRow(r: Row): Description {
  const d = (typeof r.description === 'object' && r.description !== null ? r.description : JSON.parse(str(r.description))) as Description;
  // ton-index-go's CreditPhase has `credit_extra_currencies,omitempty`: an empty map is left out.
  const credit = d.credit_ph;
  if (credit?.credit_extra_currencies && Object.keys(credit.credit_extra_currencies).length === 0) delete credit.credit_extra_currencies;
  // ton-index-go swaps gas_fees and gas_used back when gas_fees < gas_used (api-v3.md §1.5, "server quirk"), which
  // a transaction with free gas (gas_fees 0, masterchain system accounts) meets too: clients see the swapped pair.
  const c = d.compute_ph;
  if (c?.gas_fees !== undefined && c.gas_used !== undefined && BigInt(c.gas_fees) < BigInt(c.gas_used)) {
    [c.gas_fees, c.gas_used] = [c.gas_used, c.gas_fees];
  }
  return d;
}

/**
 * About how many bytes a body or init state takes as JSON: what the content cache counts against its budget. Its
 * base64 is most of it; a decoded body (a comment, a jetton transfer) adds its fields.
 */
export function contentWeight(c: ContentRecord | null): number {
  if (c === null) return 0;
  return 80 + c.body.length + (c.decoded === null ? 0 : 200);
}

/**
 * About how many bytes a transaction record takes as JSON (its heap objects about twice that): what the record cache
 * counts against its budget. Estimated from its parts instead of serialized, which would cost a record's
 * JSON.stringify on every cache fill: the transaction's own fields and description are about 1.5 KB, each message
 * about 0.55 KB besides its body and init state (services/gateway/repo/record-weight.test.ts checks it against the
 * JSON of the fixture blocks' records).
 */
export function recordWeight(r: TransactionRecord): number {
  let n = 1500;
  const add = (m: MessageRecord): void => {
    n += 550 + contentWeight(m.message_content) + contentWeight(m.init_state);
  };
  if (r.in_msg) add(r.in_msg);
  for (const m of r.out_msgs) add(m);
  return n;
}

export type TransactionRecord = WireTransaction;

/** A `transactions` row plus its message rows (`in` and `out`, out ones by created_lt) → Transaction record. */
export function transactionFromRow(r: Row, messages: readonly Row[], contents: Contents, states: States): TransactionRecord {
  let inMsg: MessageRecord | null = null;
  const out: Row[] = [];
  for (const m of messages) {
    if (m.direction === 'in') inMsg = messageFromRow(m, contents);
    else out.push(m);
  }
  // api-v3.md §1.5: out_msgs always an array, sorted by created_lt ascending.
  out.sort((a, b) => {
    const x = BigInt(str(a.created_lt));
    const y = BigInt(str(b.created_lt));
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const tx: TransactionRecord = {
    account: str(r.account),
    hash: str(r.hash),
    lt: str(r.lt),
    now: num(r.now),
    mc_block_seqno: r.mc_block_seqno === null ? null : num(r.mc_block_seqno),
    prev_trans_hash: str(r.prev_trans_hash),
    prev_trans_lt: str(r.prev_trans_lt),
    orig_status: str(r.orig_status) as AccountStatus,
    end_status: str(r.end_status) as AccountStatus,
    total_fees: str(r.total_fees),
    total_fees_extra_currencies: (r.total_fees_extra_currencies as Record<string, string>) ?? {},
    description: descriptionFromRow(r),
    block_ref: { workchain: num(r.block_workchain), shard: shardHex(r.block_shard), seqno: num(r.block_seqno) },
    in_msg: inMsg,
    out_msgs: out.map((m) => messageFromRow(m, contents)),
    account_state_before: accountStateRecord(str(r.account_state_hash_before), states),
    account_state_after: accountStateRecord(str(r.account_state_hash_after), states),
    emulated: false,
    finality: 'finalized',
  };
  return r.trace_id !== null && r.trace_id !== undefined ? withTraceId(tx, str(r.trace_id)) : tx;
}

/** `tx` with `trace_id`, which sits after mc_block_seqno on the wire (omitted while unknown). */
export function withTraceId(tx: TransactionRecord, traceId: string): TransactionRecord {
  const { account, hash, lt, now, mc_block_seqno, ...rest } = tx;
  return { account, hash, lt, now, mc_block_seqno, trace_id: traceId, ...rest };
}

/** A transaction's key, with its record and its address book's code hashes when the lookup that found it read them. */
export interface TxKey {
  account: string;
  lt: string;
  read?: TxRead;
}

/**
 * A transaction's record with the latest code hash of every raw address it names (its address book), read in the
 * same batch: a request then waits for one batch, not for a record batch and then a code hash batch.
 */
export interface TxRead {
  record: TransactionRecord;
  /** Code hashes of the addresses of the batch's records (a superset of this record's). */
  codes: ReadonlyMap<string, string | null>;
}

/** A row of an account's page, with its record when the page's batch read it. */
export interface AccountPageRow extends TxKey {
  now: number;
}

/** One side of a message: the transaction that sent (`out`) or received (`in`) it. */
export interface MessageSide extends TxKey {
  direction: string;
}
