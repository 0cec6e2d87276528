import { ParamError } from '../errors.js';
import { P, list, parseAddressParam, parseBool, query, withDefault } from './common.js';

/**
 * The query parameters of each v3 endpoint (api-v3.md §1, §2, §8), named and documented as TON Center's
 * published spec names them. Endpoint-specific "required" errors carry TON Center's status and text.
 */

const lt = 'Query rows where `lt` is at or above / below the specified value.';

export const MasterchainBlockSeqno = query({
  seqno: P.int32Zero('Masterchain block sequence number.'),
});

export const BlocksQuery = query({
  workchain: P.int32('Workchain of the block.'),
  shard: P.shard('Shard ID of the block: hex (optionally `0x`-prefixed, e.g. `8000000000000000`) or signed decimal.'),
  seqno: P.int32('Sequence number of the block. Provide this parameter with `workchain` and `shard`.'),
  root_hash: P.hash('Root hash of the block (hex, base64 or base64url).'),
  file_hash: P.hash('File hash of the block (hex, base64 or base64url).'),
  mc_seqno: P.int32('Masterchain block sequence number.'),
  start_utime: P.utime('Query blocks with a generation timestamp at or after the specified timestamp.'),
  end_utime: P.utime('Query blocks with a generation timestamp at or before the specified timestamp.'),
  start_lt: P.lt('Query blocks where `start_lt` is at or above the specified value.'),
  end_lt: P.lt('Query blocks where `start_lt` is at or below the specified value (sic: TON Center filters on start_lt).'),
  limit: P.limit(),
  offset: P.offset(),
  sort: P.sort('Sort blocks by generation timestamp.'),
});

export const MasterchainBlockShardsQuery = query({
  seqno: P.int32Zero('Masterchain block sequence number.'),
  limit: P.limit(),
  offset: P.offset(),
});

export const TransactionsQuery = query({
  workchain: P.int32('Workchain of the block.'),
  shard: P.shard('Block shard ID: hex (optionally `0x`-prefixed, e.g. `8000000000000000`) or signed decimal.'),
  seqno: P.int32('Sequence number of the block. Provide this parameter with `workchain` and `shard`.'),
  mc_seqno: P.int32('Masterchain block sequence number.'),
  account: P.addresses('List of account addresses (any form); repeat the key for several.'),
  exclude_account: P.addresses('Accepted for compatibility and ignored, as TON Center does.'),
  hash: P.hash('Transaction hash (hex, base64 or base64url).'),
  lt: P.lt('Transaction `lt`.', false),
  start_utime: P.utime('Query transactions with a generation timestamp at or after the specified timestamp.'),
  end_utime: P.utime('Query transactions with a generation timestamp at or before the specified timestamp.'),
  start_lt: P.lt(lt),
  end_lt: P.lt(lt),
  limit: P.limit(),
  offset: P.offset(),
  sort: P.sort('Sort transactions by `lt`.'),
  cursor: P.cursor(),
});

export const TransactionsByMasterchainBlockQuery = query({
  seqno: P.int32Zero('Masterchain block sequence number.'),
  limit: P.limit(),
  offset: P.offset(),
  sort: P.sort('Sort transactions by `lt`.'),
});

export const TransactionsByMessageQuery = query({
  msg_hash: P.hash('Message hash (raw or normalized) in hex, base64, or base64url form.'),
  body_hash: P.hash('Hash of message body.'),
  opcode: P.opcode('Opcode of message in hex or signed 32-bit decimal form; implies `direction=in`.'),
  direction: P.direction('Direction of the message relative to the transaction.'),
  limit: P.limit(),
  offset: P.offset(),
  sort: P.sort('Sort transactions by `lt` (accepted by TON Center although undocumented).'),
}).superRefine(
  // The Go handler checks for a filter right after parsing, before its query builder rejects `limit` or `sort`
  // (500), so this 422 must win over them; `when` runs it even when those parameters already failed.
  (q, ctx) => {
    if (q.msg_hash === undefined && q.body_hash === undefined && q.opcode === undefined) {
      ctx.addIssue({ code: 'custom', message: 'at least one of msg_hash, body_hash, opcode should be specified', params: { status: 422 } });
    }
  },
  { when: () => true },
);

export const AdjacentTransactionsQuery = query({
  hash: P.hash('Transaction hash.'),
  direction: P.direction('Direction of the message relative to the transaction: `in` = parent, `out` = children, omitted = both.'),
});

export const MessagesQuery = query({
  msg_hash: P.hashes('Message hash(es) in hex, base64, or base64url form; raw or normalized.'),
  hash: P.hash('Alias of `msg_hash` (single value).'),
  body_hash: P.hash('Hash of message body.'),
  source: P.addressOrNull('Source account address (any form). Set this parameter to `null` to return external messages.'),
  destination: P.addressOrNull('Destination account address (any form). Set this parameter to `null` to return log messages.'),
  opcode: P.opcode('Opcode of message in hex or signed 32-bit decimal form.'),
  start_utime: P.utime('Query messages where `created_at` is at or after the specified timestamp.'),
  end_utime: P.utime('Query messages where `created_at` is at or before the specified timestamp.'),
  start_lt: P.lt('Query messages where `created_lt` is at or above the specified value.'),
  end_lt: P.lt('Query messages where `created_lt` is at or below the specified value.'),
  direction: P.direction('Direction of the message.'),
  exclude_externals: P.bool('Exclude external messages.'),
  only_externals: P.bool('Return only external messages.'),
  limit: P.limit(),
  offset: P.offset(),
  sort: P.sort('Sort messages by `lt`. To return the latest messages with `sort=desc`, set `start_lt` to `1`.'),
  cursor: P.cursor(),
});

/**
 * accountStates / walletStates take any number of addresses and answer at most {@link MAX_STATES} of them (api-v3.md
 * §2.1 "hard cap 1000 rows"; the live server has no error for more, so neither has this one).
 */
export const MAX_STATES = 1000;

export const AccountStatesQuery = query({
  address: P.addresses('List of addresses in any form. At most 1000 states are returned.', {
    required: () => new ParamError('address of account is required'),
  }),
  include_boc: P.boolDefault('Include code and data BoCs. Defaults to `true`.', true),
});

export const WalletStatesQuery = query({
  address: P.addresses('List of addresses in any form. At most 1000 states are returned.', {
    required: () => new ParamError('address of account is required'),
  }),
});

/** /addressBook keeps the caller's strings (keys echo them) and never fails on one of them. */
export const AddressBookQuery = query({
  address: list(
    { description: 'List of addresses in any form to include in the address book.' },
    (raw) => raw,
    // No upper bound: api-v3.md §2.3 lists only the missing case (the request line's length bounds the count).
    // Verbatim: the keys echo the caller's strings, so "A,B" stays one (unparsable) key as in the Go server (§0.1).
    { required: () => new ParamError('at least 1 address required'), verbatim: true },
  ),
});

export const TopAccountsQuery = query({
  limit: P.limit({ status: 422 }),
  offset: P.offset(),
});

/** The v2-compatible methods answer a missing address with 401 (sic, api-v3.md §8). */
export const AddressInformationQuery = query({
  address: withDefault({ type: 'string', description: 'Account address in any form.' }, (raw, name) => {
    if (raw === undefined) throw new ParamError('address of account is required', 401);
    return parseAddressParam(raw, name);
  }),
  use_v2: withDefault(
    {
      type: 'boolean',
      default: false,
      description:
        'Use the API v2 method. TON Center documents `true` as the default but answers from the index unless `true` is sent; ' +
        'this instance has no v2 backend, so `true` answers 500 as TON Center does without one.',
    },
    (raw, name) => (raw === undefined ? false : parseBool(raw, name)),
  ),
});
