import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { v2MessageData } from '../../../shared/ton/v2-message-data.js';
import { AddressParseError, friendlyAddress, parseAddress } from '../../../shared/ton/address.js';
import type { BlockSource, FullBlockRef, MasterchainBackProof, ShardBlockProof } from '../../../shared/sources/source.js';
import { BaseError } from '../../../shared/runtime/errors.js';
import { V2ShardBlockProof } from '../schemas/records.js';
import { ApiError, notFound, unprocessable } from '../errors.js';
import { latestStates } from '../repo/accounts.js';
import { blockById, blockWithHeaderById } from '../repo/blocks.js';
import type { BlockRecord, MessageRecord, Row, TransactionRecord } from '../repo/records.js';
import { loadTransactions } from '../repo/transactions.js';
import {
  accountStateAt,
  accountTransactionKeys,
  blockByLtOrUtime,
  configAt,
  blockTransactionKeys,
  messageSides,
  shardTips,
  transactionBocs,
  transactionHashAt,
} from '../repo/v2-read.js';
import {
  V2AccountQuery,
  V2AddressInformationResponse,
  V2AddressQuery,
  V2BlockTransactionsExtResponse,
  V2BlockTransactionsQuery,
  V2BlockTransactionsResponse,
  V2ConfigAllQuery,
  V2ConfigParamQuery,
  V2DetectAddressResponse,
  V2ExtendedAddressInformationResponse,
  V2LocateTxQuery,
  V2LookupBlockQuery,
  V2SeqnoQueryRead,
  V2ShardBlockProofQuery,
  V2ShardsResponse,
  V2StringResponse,
  V2TransactionResponse,
  V2TransactionsQuery,
  V2TransactionsResponse,
  V2WalletInformationResponse,
  V2LookupBlockResponse,
  V2ConfigInfoResponse,
} from '../schemas/v2-read.js';
import { configParamBoc } from '../../../shared/ton/config-dict.js';
import { parseWalletData, walletKind } from '../../../shared/ton/interfaces/wallets.js';
import { RECORDS_PER_SLICE, yieldToLoop } from '../json-page.js';
import type { RouteDeps } from './context.js';
import { type V2Operation, blockIdExt, blockNotFound, errors, extra, lastMasterchainBlock, tags } from './v2-common.js';

/**
 * The v2 read operations (api-v2.md §3.5–3.6; ton-http-api's account, transaction, block and utility methods),
 * answered from the index in the C++ ton-http-api's shapes. What a liteserver alone knows (block proofs) is answered
 * with the v2 error envelope (services/gateway/README.md, "Known differences").
 */

const ZERO_HASH = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
const MC_SHARD = '9223372036854775808';
const v2Errors = { ...errors, 404: errors[500], 409: errors[500] };

/**
 * A source's failure to prove a block as the API tells it: a proof that fails its checks (every liteserver asked served
 * one) is tonlib's 500 with the reason; no answer in time is v2's 504.
 */
export function proofApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')) return new ApiError(504, 'LITE_SERVER_NETWORK timeout');
  if (e instanceof BaseError) return new ApiError(500, `LITE_SERVER_UNKNOWN: ${e.message}`);
  throw e;
}

/** An error of data the index cannot give (what TON Center reads from a liteserver): 500, as a liteserver error. */
export function unavailable(what: string): ApiError {
  return new ApiError(500, `LITE_SERVER_UNKNOWN: ${what} is not available from the index`);
}

type Status = 'active' | 'uninitialized' | 'frozen';

/** tonlib's account state (api-v2.md §3.5) from the index's status: code may be absent from the store while active. */
function v2State(status: unknown): Status {
  return status === 'active' ? 'active' : status === 'frozen' ? 'frozen' : 'uninitialized';
}

function extraCurrencies(map: unknown): Array<{ '@type': 'extraCurrency'; id: number; amount: string }> {
  if (!map || typeof map !== 'object') return [];
  return Object.entries(map as Record<string, unknown>).map(([id, amount]) => ({ '@type': 'extraCurrency' as const, id: Number(id), amount: String(amount) }));
}

/** An account state as the v2 account operations need it, at the newest indexed masterchain block or at `seqno`. */
interface V2Account {
  raw: string;
  balance: string;
  extra_currencies: ReturnType<typeof extraCurrencies>;
  last_transaction_id: { '@type': 'internal.transactionId'; lt: string; hash: string };
  block_id: ReturnType<typeof blockIdExt>;
  sync_utime: number;
  code: string;
  data: string;
  code_hash: string | null;
  frozen_hash: string;
  state: Status;
}

async function v2Account(deps: RouteDeps, req: FastifyRequest, raw: string, seqno: number | undefined): Promise<V2Account> {
  if (seqno !== undefined && seqno <= 0) throw unprocessable('seqno should be positive');
  let block: BlockRecord;
  let row: Row | null = null;
  let last = { lt: '0', hash: ZERO_HASH };
  if (seqno === undefined) {
    block = (await lastMasterchainBlock(deps, req)).last;
    row = (await latestStates(deps.db, req.tf, [raw])).get(raw) ?? null;
    if (row) last = { lt: String(row.last_trans_lt), hash: String(row.last_trans_hash) };
  } else {
    const b = await blockById(deps.db, req.tf, { workchain: -1, shard: MC_SHARD, seqno });
    if (!b) throw blockNotFound(-1, MC_SHARD, seqno);
    block = b;
    const at = await accountStateAt(deps.db, req.tf, raw, seqno);
    if (at) {
      if (!at.state) throw unavailable(`the state of ${raw} at masterchain block ${seqno}`);
      row = at.state;
      last = { lt: at.last_trans_lt, hash: at.last_trans_hash };
    }
  }
  // tonlib prints a negative balance as 0 (the C++ converter); the store's is unsigned anyway.
  return {
    raw,
    balance: row ? String(row.balance) : '0',
    extra_currencies: extraCurrencies(row?.extra_currencies),
    last_transaction_id: { '@type': 'internal.transactionId', ...last },
    block_id: blockIdExt(block),
    sync_utime: Number(block.gen_utime),
    code: (row?.code_boc as string | null | undefined) ?? '',
    data: (row?.data_boc as string | null | undefined) ?? '',
    code_hash: (row?.code_hash as string | null | undefined) ?? null,
    frozen_hash: (row?.frozen_hash as string | null | undefined)?.trim() ?? '',
    state: row ? v2State(row.status) : 'uninitialized',
  };
}

/** The `raw.fullAccountState` of getAddressInformation (api-v2.md §3.5), without `@extra`. */
export async function addressInformation(deps: RouteDeps, req: FastifyRequest, raw: string, seqno?: number) {
  const a = await v2Account(deps, req, raw, seqno);
  return {
    '@type': 'raw.fullAccountState' as const,
    balance: a.balance,
    extra_currencies: a.extra_currencies,
    last_transaction_id: a.last_transaction_id,
    block_id: a.block_id,
    code: a.code,
    data: a.data,
    frozen_hash: a.frozen_hash,
    sync_utime: a.sync_utime,
    state: a.state,
  };
}

/** The `ext.accounts.walletInformation` of getWalletInformation (api-v2.md §3.6): wallets by code hash. */
export async function walletInformation(deps: RouteDeps, req: FastifyRequest, raw: string, seqno?: number) {
  const a = await v2Account(deps, req, raw, seqno);
  const kind = walletKind(a.code_hash);
  const data = kind ? parseWalletData(kind, a.data || null) : {};
  return {
    '@type': 'ext.accounts.walletInformation' as const,
    wallet: kind !== undefined,
    balance: a.balance,
    account_state: a.state,
    last_transaction_id: a.last_transaction_id,
    ...(kind ? { wallet_type: kind.type } : {}),
    ...(data.seqno !== undefined ? { seqno: data.seqno } : {}),
    ...(data.wallet_id !== undefined ? { wallet_id: data.wallet_id } : {}),
    ...(data.is_signature_allowed !== undefined ? { is_signature_allowed: data.is_signature_allowed } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Transactions
// ---------------------------------------------------------------------------------------------------------------

/** tonlib's `account_address`: the bounceable user-friendly form (testnet flag on a testnet instance). */
function accountAddress(raw: string | null, testnet: boolean): string {
  if (!raw) return '';
  return friendlyAddress(raw, { bounceable: true, testnet }) ?? '';
}

/** `wc:HEX` upper case, as the C++ server prints a transaction's `account`. */
function rawUpper(raw: string): string {
  return raw.toUpperCase();
}

function v2Message(m: MessageRecord, testnet: boolean, std: boolean) {
  const { msg_data, message } = v2MessageData(m.message_content?.body ?? '', m.init_state?.body ?? '');
  const common = {
    hash: m.hash,
    value: m.value ?? '0',
    extra_currencies: extraCurrencies(m.value_extra_currencies),
    fwd_fee: m.fwd_fee ?? '0',
    ihr_fee: m.ihr_fee ?? '0',
    created_lt: m.created_lt ?? '0',
    body_hash: m.message_content?.hash ?? '',
    msg_data,
  };
  if (std) {
    const addr = (a: string | null) => ({ '@type': 'accountAddress' as const, account_address: accountAddress(a, testnet) });
    const { hash, ...rest } = common;
    return { '@type': 'raw.message' as const, hash, source: addr(m.source), destination: addr(m.destination), ...rest };
  }
  const { hash, ...rest } = common;
  return {
    '@type': 'ext.message' as const,
    hash,
    source: accountAddress(m.source, testnet),
    destination: accountAddress(m.destination, testnet),
    ...rest,
    message,
  };
}

/**
 * A transaction in v2 form. `fee` is what tonlib reports: the transaction's total fees plus the forwarding (and IHR)
 * fees of its outgoing messages; `storage_fee` the storage phase's collected fees; `other_fee` the rest.
 */
function v2Transaction(tx: TransactionRecord, boc: string | undefined, testnet: boolean, ext: boolean) {
  if (boc === undefined) throw unavailable(`the data of transaction ${tx.lt} of ${tx.account} (indexed before transaction BOCs were kept)`);
  let fee = BigInt(tx.total_fees);
  for (const m of tx.out_msgs) fee += BigInt(m.fwd_fee ?? '0') + BigInt(m.ihr_fee ?? '0');
  const storagePh = (tx.description as { storage_ph?: { storage_fees_collected?: string } }).storage_ph;
  const storage = BigInt(storagePh?.storage_fees_collected ?? '0');
  return {
    '@type': ext ? ('raw.transactionExt' as const) : ('ext.transaction' as const),
    address: { '@type': 'accountAddress' as const, account_address: accountAddress(tx.account, testnet) },
    account: rawUpper(tx.account),
    utime: tx.now,
    data: boc,
    transaction_id: { '@type': 'internal.transactionId' as const, lt: tx.lt, hash: tx.hash },
    fee: fee.toString(),
    storage_fee: storage.toString(),
    other_fee: (fee - storage).toString(),
    ...(tx.in_msg ? { in_msg: v2Message(tx.in_msg, testnet, ext) } : {}),
    out_msgs: tx.out_msgs.map((m) => v2Message(m, testnet, ext)),
  };
}

async function v2Transactions(deps: RouteDeps, req: FastifyRequest, keys: ReadonlyArray<{ account: string; lt: string }>, ext: boolean) {
  const [{ transactions }, bocs] = await Promise.all([loadTransactions(deps.db, req.tf, keys), transactionBocs(deps.db, req.tf, keys)]);
  const out: Array<ReturnType<typeof v2Transaction>> = [];
  for (const [i, tx] of transactions.entries()) {
    // Each one decodes its messages' bodies: other requests get the thread between slices of a long list.
    if (i > 0 && i % RECORDS_PER_SLICE === 0) await yieldToLoop();
    out.push(v2Transaction(tx, bocs.get(`${tx.account}|${tx.lt}`), deps.db.testnet, ext));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------------------------

interface DetectedAddress {
  raw: string;
  bounceable: boolean;
  testnet: boolean;
  given: 'raw_form' | 'friendly_bounceable' | 'friendly_non_bounceable';
}

/** The form of an address as block::StdAddress::parse reads it: raw, or 48-character user-friendly with its flags. */
function detect(input: string): DetectedAddress {
  let raw: string;
  try {
    raw = parseAddress(input);
  } catch (e) {
    if (e instanceof AddressParseError) throw unprocessable('failed to parse address');
    throw e;
  }
  if (input.length === 48) {
    const flags = Buffer.from(input.replace(/-/g, '+').replace(/_/g, '/'), 'base64')[0]!;
    const bounceable = (flags & 0x40) === 0;
    return { raw, bounceable, testnet: (flags & 0x80) !== 0, given: bounceable ? 'friendly_bounceable' : 'friendly_non_bounceable' };
  }
  return { raw, bounceable: true, testnet: false, given: 'raw_form' };
}

function friendlyVariants(raw: string, bounceable: boolean, testnet: boolean) {
  const url = friendlyAddress(raw, { bounceable, testnet });
  if (url === null) throw unprocessable('failed to parse address');
  return { '@type': 'ext.utils.detectedAddressVariant' as const, b64: url.replace(/-/g, '+').replace(/_/g, '/'), b64url: url };
}

// ---------------------------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------------------------

export function v2ReadOperations(
  operation: V2Operation,
  deps: RouteDeps,
  opts: {
    testnet: boolean;
    /** The source beside the gateway, when it proves blocks (getShardBlockProof). */
    proofs?: Pick<BlockSource, 'shardBlockProof' | 'masterchainBackProof'>;
  },
): void {
  const ok = <T>(result: T) => ({ ok: true as const, result });

  operation(
    'getAddressInformation',
    {
      schema: {
        tags,
        summary: 'Get address information (v2)',
        description:
          'Balance, state, code, data and last transaction of an account from the index, at the newest indexed masterchain block or `seqno`. ' +
          '`code`/`data` are empty where the store holds only their hashes (block state updates prune them).',
        querystring: V2AccountQuery,
        response: { 200: V2AddressInformationResponse, ...errors },
      },
    },
    async (req, q) => ok({ ...(await addressInformation(deps, req, q.address, q.seqno)), '@extra': extra() }),
  );

  operation(
    'getExtendedAddressInformation',
    {
      schema: {
        tags,
        summary: 'Get extended address information (v2)',
        description: 'As getAddressInformation, with the account state parsed for wallets v3/v4 (tonlib `fullAccountState`).',
        querystring: V2AccountQuery,
        response: { 200: V2ExtendedAddressInformationResponse, ...errors },
      },
    },
    async (req, q) => {
      const a = await v2Account(deps, req, q.address, q.seqno);
      const kind = walletKind(a.code_hash);
      // tonlib's wallet.v3/v4 account states (revision = the wallet's r), else raw; uninit and frozen: uninited.
      const rev = kind ? /^wallet v([34]) r([12])$/.exec(kind.type) : null;
      const data = kind && rev ? parseWalletData(kind, a.data || null) : {};
      let accountState;
      let revision = 0;
      if (a.state !== 'active') accountState = { '@type': 'uninited.accountState' as const, frozen_hash: a.frozen_hash };
      else if (rev && data.seqno !== undefined && data.wallet_id !== undefined) {
        accountState = { '@type': rev[1] === '3' ? ('wallet.v3.accountState' as const) : ('wallet.v4.accountState' as const), wallet_id: data.wallet_id, seqno: data.seqno };
        revision = Number(rev[2]);
      } else accountState = { '@type': 'raw.accountState' as const, code: a.code, data: a.data, frozen_hash: a.frozen_hash };
      return ok({
        '@type': 'fullAccountState' as const,
        address: { '@type': 'accountAddress' as const, account_address: accountAddress(a.raw, opts.testnet) },
        balance: a.balance,
        extra_currencies: a.extra_currencies,
        last_transaction_id: a.last_transaction_id,
        block_id: a.block_id,
        sync_utime: a.sync_utime,
        account_state: accountState,
        revision,
        '@extra': extra(),
      });
    },
  );

  operation(
    'getWalletInformation',
    {
      schema: {
        tags,
        summary: 'Get wallet information (v2)',
        description: 'Wallet type by code hash (v1r1 … v5r1), seqno and wallet_id from the data cell when the store holds it.',
        querystring: V2AccountQuery,
        response: { 200: V2WalletInformationResponse, ...errors },
      },
    },
    async (req, q) => ok(await walletInformation(deps, req, q.address, q.seqno)),
  );

  operation(
    'getAddressBalance',
    {
      schema: { tags, summary: 'Get address balance (v2)', description: 'Balance in nanotons, as a string.', querystring: V2AccountQuery, response: { 200: V2StringResponse, ...errors } },
    },
    async (req, q) => ok((await v2Account(deps, req, q.address, q.seqno)).balance),
  );

  operation(
    'getAddressState',
    {
      schema: {
        tags,
        summary: 'Get address state (v2)',
        description: '`active`, `uninitialized` or `frozen`.',
        querystring: V2AccountQuery,
        response: { 200: V2StringResponse, ...errors },
      },
    },
    async (req, q) => ok((await v2Account(deps, req, q.address, q.seqno)).state),
  );

  operation(
    'getTransactions',
    {
      schema: {
        tags,
        summary: 'Get transactions (v2)',
        description:
          'An account\'s transactions, newest first, from (`lt`, `hash`) or from its newest, down to `to_lt` (exclusive); `data` is the transaction BOC.',
        querystring: V2TransactionsQuery,
        response: { 200: V2TransactionsResponse, 404: errors[500], ...errors },
      },
    },
    async (req, q) => {
      const limit = q.limit ?? 10;
      if (limit <= 0) throw unprocessable('limit should be positive');
      if (limit > 1000) throw unprocessable('limit should be less or equal 1000');
      if (q.lt !== undefined && BigInt(q.lt) < 0n) throw unprocessable('lt should be non-negative');
      // lt = 0 is taken as absent (the C++ handler).
      const lt = q.lt === undefined || q.lt === '0' ? undefined : q.lt;
      if ((lt !== undefined) !== (q.hash !== undefined)) throw unprocessable('lt and hash should be used together');
      const toLt = q.to_lt !== undefined && BigInt(q.to_lt) > 0n ? q.to_lt : '0';
      if (lt !== undefined) {
        const hash = await transactionHashAt(deps.db, req.tf, q.address, lt);
        if (hash !== q.hash) throw notFound('transaction was not found');
      }
      const keys = await accountTransactionKeys(deps.db, req.tf, q.address, { ...(lt !== undefined ? { fromLt: lt } : {}), toLt, limit });
      return ok(await v2Transactions(deps, req, keys, false));
    },
    ['result'],
  );

  const locate = (name: string, side: 'in' | 'out', description: string) =>
    operation(
      name,
      {
        schema: { tags, summary: `${name} (v2)`, description, querystring: V2LocateTxQuery, response: { 200: V2TransactionResponse, 404: errors[500], ...errors } },
      },
      async (req, q) => {
        if (BigInt(q.created_lt) < 0n) throw unprocessable('created_lt should be non-negative');
        const sides = await messageSides(deps.db, req.tf, q);
        const key = sides.find((s) => s.direction === side);
        if (!key) throw notFound('transaction not found');
        const [tx] = await v2Transactions(deps, req, [key], false);
        if (!tx) throw notFound('transaction not found');
        return ok(tx);
      },
    );
  locate('tryLocateTx', 'in', 'The transaction of `destination` that received the message `source → destination` created at `created_lt`.');
  locate('tryLocateResultTx', 'in', 'Same as tryLocateTx.');
  locate('tryLocateSourceTx', 'out', 'The transaction of `source` that sent the message `source → destination` created at `created_lt`.');

  operation(
    'lookupBlock',
    {
      schema: {
        tags,
        summary: 'Look up a block (v2)',
        description: 'A block of shard (`workchain`, `shard`) by `seqno`, by an `lt` inside it, or as the newest generated at or before `unixtime`.',
        querystring: V2LookupBlockQuery,
        response: { 200: V2LookupBlockResponse, ...errors },
      },
    },
    async (req, q) => {
      const given = [q.seqno, q.lt, q.unixtime].filter((v) => v !== undefined).length;
      if (q.seqno !== undefined && q.seqno <= 0) throw unprocessable('seqno should be positive');
      if (q.lt !== undefined && BigInt(q.lt) < 0n) throw unprocessable('lt should be non-negative');
      if (q.unixtime !== undefined && q.unixtime < 0) throw unprocessable('unixtime should be non-negative');
      if (given !== 1) throw unprocessable('exactly one of seqno, lt, unixtime should be specified');
      const id = { workchain: q.workchain, shard: q.shard };
      const found =
        q.seqno !== undefined
          ? await blockById(deps.db, req.tf, { ...id, seqno: q.seqno })
          : (await blockByLtOrUtime(deps.db, req.tf, id, q.lt !== undefined ? { lt: q.lt } : { utime: q.unixtime! }))?.record;
      if (!found) {
        const shardHex = BigInt(q.shard).toString(16).padStart(16, '0');
        if (q.seqno !== undefined) throw blockNotFound(q.workchain, q.shard, q.seqno);
        throw new ApiError(500, `LITE_SERVER_NOTREADY: cannot find block (${q.workchain},${shardHex}) ${q.lt !== undefined ? `lt=${q.lt}` : `utime=${q.unixtime}`}: not in db`);
      }
      return ok({ ...blockIdExt(found), '@extra': extra() });
    },
  );

  operation(
    'shards',
    {
      schema: {
        tags,
        summary: 'Get shards (v2)',
        description: 'The shard blocks a masterchain block commits (its McBlockExtra shard hashes). Hashes are empty for shard blocks the index does not hold.',
        querystring: V2SeqnoQueryRead,
        response: { 200: V2ShardsResponse, ...errors },
      },
    },
    async (req, q) => {
      if (q.seqno <= 0) throw unprocessable('seqno should be positive');
      const mc = await blockById(deps.db, req.tf, { workchain: -1, shard: MC_SHARD, seqno: q.seqno });
      if (!mc) throw blockNotFound(-1, MC_SHARD, q.seqno);
      const tips = await shardTips(deps.db, req.tf, q.seqno);
      return ok({
        '@type': 'blocks.shards' as const,
        shards: tips.map((t) => blockIdExt({ ...t, shard: BigInt(t.shard).toString(16).padStart(16, '0') })),
        '@extra': extra(),
      });
    },
  );

  const blockTxs = async (req: FastifyRequest, q: z.output<typeof V2BlockTransactionsQuery>) => {
    const count = q.count ?? 40;
    if (count <= 0) throw unprocessable('count should be positive');
    if (count > 10000) throw unprocessable('count should be less or equal 10000');
    if (q.seqno <= 0) throw unprocessable('seqno should be positive');
    if (q.after_lt !== undefined && BigInt(q.after_lt) < 0n) throw unprocessable('after_lt should be non-negative');
    if ((q.after_lt !== undefined) !== (q.after_hash !== undefined)) throw unprocessable('after_lt and after_hash should be used together');
    const both = q.root_hash !== undefined && q.file_hash !== undefined;
    const found = await blockWithHeaderById(deps.db, req.tf, {
      workchain: q.workchain,
      shard: q.shard,
      seqno: q.seqno,
      ...(both ? { root_hash: q.root_hash, file_hash: q.file_hash } : {}),
    });
    if (!found) throw blockNotFound(q.workchain, q.shard, q.seqno);
    const b = found.record;
    const after =
      q.after_hash !== undefined && q.after_lt !== undefined
        ? { account: `${b.workchain}:${Buffer.from(q.after_hash, 'base64').toString('hex').toUpperCase()}`, lt: q.after_lt }
        : undefined;
    const keys = await blockTransactionKeys(
      deps.db,
      req.tf,
      { workchain: b.workchain, shard: q.shard, seqno: b.seqno, start_lt: b.start_lt, end_lt: b.end_lt },
      { ...(after ? { after } : {}), limit: count + 1 },
    );
    return { block: b, keys: keys.slice(0, count), incomplete: keys.length > count, count };
  };

  operation(
    'getBlockTransactions',
    {
      schema: {
        tags,
        summary: 'Get block transactions (v2)',
        description: 'Short ids of a block\'s transactions in block order (by account, then lt), `count` at a time after (`after_hash`, `after_lt`).',
        querystring: V2BlockTransactionsQuery,
        response: { 200: V2BlockTransactionsResponse, ...errors },
      },
    },
    async (req, q) => {
      const { block, keys, incomplete, count } = await blockTxs(req, q);
      return ok({
        '@type': 'blocks.transactions' as const,
        id: blockIdExt(block),
        req_count: count,
        incomplete,
        // tonlib's shortTxId mode: account, lt and hash present (1 | 2 | 4) and the 128 flag of the request.
        transactions: keys.map((k) => ({ '@type': 'blocks.shortTxId' as const, mode: 135, account: k.account.toLowerCase(), lt: k.lt, hash: k.hash })),
        '@extra': extra(),
      });
    },
    ['result', 'transactions'],
  );

  operation(
    'getBlockTransactionsExt',
    {
      schema: {
        tags,
        summary: 'Get block transactions, full (v2)',
        description: 'As getBlockTransactions, with each transaction in full (`raw.transactionExt`).',
        querystring: V2BlockTransactionsQuery,
        response: { 200: V2BlockTransactionsExtResponse, ...errors },
      },
    },
    async (req, q) => {
      const { block, keys, incomplete, count } = await blockTxs(req, q);
      return ok({
        '@type': 'blocks.transactionsExt' as const,
        id: blockIdExt(block),
        req_count: count,
        incomplete,
        transactions: await v2Transactions(deps, req, keys, true),
        '@extra': extra(),
      });
    },
    ['result', 'transactions'],
  );

  operation(
    'detectAddress',
    {
      schema: {
        tags,
        summary: 'Detect address (v2)',
        description: 'The raw form and the bounceable and non-bounceable user-friendly forms of an address.',
        querystring: V2AddressQuery,
        response: { 200: V2DetectAddressResponse, ...errors },
      },
    },
    async (_req, q) => {
      const d = detect(q.address);
      return ok({
        '@type': 'ext.utils.detectedAddress' as const,
        raw_form: d.raw.toLowerCase(),
        bounceable: friendlyVariants(d.raw, true, d.testnet),
        non_bounceable: friendlyVariants(d.raw, false, d.testnet),
        given_type: d.given,
        test_only: d.testnet,
      });
    },
  );

  operation(
    'packAddress',
    {
      schema: {
        tags,
        summary: 'Pack address (v2)',
        description: 'The user-friendly url-safe form (bounceable unless the given friendly form is not).',
        querystring: V2AddressQuery,
        response: { 200: V2StringResponse, ...errors },
      },
    },
    async (_req, q) => {
      const d = detect(q.address);
      return ok(friendlyVariants(d.raw, d.bounceable, d.testnet).b64url);
    },
  );

  operation(
    'unpackAddress',
    {
      schema: { tags, summary: 'Unpack address (v2)', description: 'The raw form `wc:HEX`.', querystring: V2AddressQuery, response: { 200: V2StringResponse, ...errors } },
    },
    async (_req, q) => ok(detect(q.address).raw),
  );

  operation(
    'getShardBlockProof',
    {
      schema: {
        tags,
        summary: 'Get shard block proof (v2)',
        description:
          'The block proven from the masterchain block that commits it (`mc_id`): `links`, each a block id and a Merkle proof of the block ' +
          'before it (the first: of `mc_id`, naming the block in its ShardHashes; then of shard blocks, naming it as a previous block), ' +
          'fetched with a liteserver\'s `liteServer.getShardBlockProof` and checked as tonlib checks it; `mc_id` must be the indexed ' +
          'masterchain block of its seqno. `from` is the masterchain block `from_seqno` names, or else the newest indexed one (tonlib\'s ' +
          'newest known block); when it is newer than `mc_id`, `mc_proof` holds the `blocks.blockLinkBack` links from it down to `mc_id` ' +
          '(a liteserver\'s `liteServer.getBlockProof` backward links: Merkle proofs of `from`\'s header and state, whose prev_blocks names ' +
          '`mc_id`), checked as tonlib checks them; otherwise it is empty. A `from_seqno` older than `mc_id` answers tonlib\'s 500 "from mc ' +
          'block is too old". Needs a liteserver source beside the gateway (`tonflow start` following liteservers); otherwise 500 "not available".',
        querystring: V2ShardBlockProofQuery,
        response: { 200: V2ShardBlockProof, ...v2Errors },
      },
    },
    async (req, q) => {
      const block = await blockById(deps.db, req.tf, { workchain: q.workchain, shard: q.shard, seqno: q.seqno });
      if (!block) throw blockNotFound(q.workchain, q.shard, q.seqno);
      // tonlib starts from the block it is given (ton-http-api: `from_seqno`), or else from the newest masterchain block it knows.
      const from = q.from_seqno === undefined ? (await lastMasterchainBlock(deps, req)).last : await blockById(deps.db, req.tf, { workchain: -1, shard: MC_SHARD, seqno: q.from_seqno });
      if (!from) throw blockNotFound(-1, MC_SHARD, q.from_seqno ?? 0);
      const source = opts.proofs;
      if (!source?.shardBlockProof) throw unavailable('block proofs (liteserver getShardBlockProof)');
      const b64 = (x: Uint8Array) => Buffer.from(x).toString('base64');
      const ref = (r: FullBlockRef) => blockIdExt({ ...r.id, root_hash: b64(r.rootHash), file_hash: b64(r.fileHash) });
      const full = (b: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string }): FullBlockRef => ({
        id: { workchain: b.workchain, shard: b.shard, seqno: b.seqno },
        rootHash: Buffer.from(b.root_hash, 'base64'),
        fileHash: Buffer.from(b.file_hash, 'base64'),
      });
      // One deadline for both liteserver questions, as for one tonlib request.
      const deadline = AbortSignal.timeout(req.tf.timeoutMs);
      let proof: ShardBlockProof;
      try {
        proof = await source.shardBlockProof(full(block), deadline);
      } catch (e) {
        throw proofApiError(e);
      }
      // The proof's trust anchor: the masterchain block the index holds (its hash chain checked as it was indexed).
      const mc = await blockById(deps.db, req.tf, { workchain: -1, shard: MC_SHARD, seqno: proof.mc.id.seqno });
      if (!mc) throw new ApiError(500, `LITE_SERVER_NOTREADY: the proof starts at masterchain block ${proof.mc.id.seqno}, which is not indexed yet`);
      if (mc.root_hash !== b64(proof.mc.rootHash) || mc.file_hash !== b64(proof.mc.fileHash)) {
        throw new ApiError(500, `LITE_SERVER_UNKNOWN: the proof starts at masterchain block ${proof.mc.id.seqno} (${b64(proof.mc.rootHash)}), which is not the indexed block of that seqno`);
      }
      if (from.seqno < mc.seqno) throw new ApiError(500, 'from mc block is too old');
      let back: MasterchainBackProof = { links: [] };
      if (from.seqno > mc.seqno) {
        if (!source.masterchainBackProof) throw unavailable(`the links back from masterchain block ${from.seqno} to ${mc.seqno} (liteserver getBlockProof)`);
        try {
          back = await source.masterchainBackProof(full(from), full(mc), deadline);
        } catch (e) {
          throw proofApiError(e);
        }
      }
      return ok({
        '@type': 'blocks.shardBlockProof' as const,
        from: blockIdExt(from),
        mc_id: blockIdExt(mc),
        links: proof.links.map((l) => ({ '@type': 'blocks.shardBlockLink' as const, id: ref(l.block), proof: b64(l.proof) })),
        mc_proof: back.links.map((l) => ({
          '@type': 'blocks.blockLinkBack' as const,
          to_key_block: l.toKeyBlock,
          from: ref(l.from),
          to: ref(l.to),
          dest_proof: b64(l.destProof),
          proof: b64(l.proof),
          state_proof: b64(l.stateProof),
        })),
        '@extra': extra(),
      });
    },
  );

  /** The config dictionary in force at masterchain block `seqno` (default: the newest indexed one). */
  const configOf = async (req: FastifyRequest, seqno: number | undefined): Promise<string> => {
    if (seqno !== undefined && seqno <= 0) throw unprocessable('seqno should be positive');
    const mc = seqno ?? (await lastMasterchainBlock(deps, req)).last.seqno;
    const at = await configAt(deps.db, req.tf, mc);
    if (!at.block) throw blockNotFound(-1, MC_SHARD, mc);
    if (at.config === null) throw unavailable(`the config of key block ${at.keySeqno} (in force at masterchain block ${mc})`);
    return at.config;
  };

  operation(
    'getConfigParam',
    {
      schema: {
        tags,
        summary: 'Get config param (v2)',
        description:
          'One parameter of the config in force at masterchain block `seqno` (default: the newest indexed): that of the key block the block names, ' +
          'when the index holds that key block. `result.config.bytes` is the parameter\'s cell.',
        querystring: V2ConfigParamQuery,
        response: { 200: V2ConfigInfoResponse, ...errors },
      },
    },
    async (req, q) => {
      if (q.config_id !== undefined && q.param !== undefined) throw unprocessable('only one of config_id or param should be specified');
      const id = q.config_id ?? q.param;
      if (id === undefined) throw unprocessable('config_id required');
      if (id < 0) throw unprocessable('param should be non-negative');
      const bytes = configParamBoc(await configOf(req, q.seqno), id);
      if (bytes === null) throw new ApiError(500, `LITE_SERVER_UNKNOWN: config param ${id} is not in the config`);
      return ok({ '@type': 'configInfo' as const, config: { '@type': 'tvm.cell' as const, bytes }, '@extra': extra() });
    },
  );

  operation(
    'getConfigAll',
    {
      schema: {
        tags,
        summary: 'Get config (v2)',
        description: 'The whole config dictionary (`Hashmap 32 ^Cell`) in force at masterchain block `seqno` (default: the newest indexed), as getConfigParam.',
        querystring: V2ConfigAllQuery,
        response: { 200: V2ConfigInfoResponse, ...errors },
      },
    },
    async (req, q) => ok({ '@type': 'configInfo' as const, config: { '@type': 'tvm.cell' as const, bytes: await configOf(req, q.seqno) }, '@extra': extra() }),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The v3 wrappers (api-v3.md §8.1–8.2, `use_v2=true`): ton-index-go reads v2's answer and flattens it.
// ---------------------------------------------------------------------------------------------------------------

/** v3 `addressInformation` from v2 getAddressInformation: empty strings become null, `state` is the status. */
export async function v2AddressInformation(deps: RouteDeps, req: FastifyRequest, raw: string) {
  const a = await v3Wrap(() => addressInformation(deps, req, raw));
  return {
    balance: a.balance,
    code: a.code === '' ? null : a.code,
    data: a.data === '' ? null : a.data,
    last_transaction_lt: a.last_transaction_id.lt,
    last_transaction_hash: a.last_transaction_id.hash,
    frozen_hash: a.frozen_hash === '' ? null : a.frozen_hash,
    status: a.state,
  };
}

/** v3 `walletInformation` from v2 getWalletInformation: 409 for anything but a wallet or an uninitialized account. */
export async function v2WalletInformation(deps: RouteDeps, req: FastifyRequest, raw: string) {
  const w = await v3Wrap(() => walletInformation(deps, req, raw));
  if (!w.wallet && w.account_state !== 'uninitialized') throw new ApiError(409, 'not a wallet');
  return {
    balance: w.balance,
    ...(w.wallet_type !== undefined ? { wallet_type: w.wallet_type } : {}),
    ...(w.seqno !== undefined ? { seqno: w.seqno } : {}),
    ...(w.wallet_id !== undefined ? { wallet_id: w.wallet_id } : {}),
    last_transaction_lt: w.last_transaction_id.lt,
    last_transaction_hash: w.last_transaction_id.hash,
    status: w.account_state,
  };
}

/** ton-index-go answers every v2 failure (`ok: false`) with 500 and the v2 error text. */
async function v3Wrap<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof ApiError && e.body === undefined) throw new ApiError(500, e.message);
    throw e;
  }
}
