import { z } from 'zod';
import { AddressParseError, parseAddress, parseAddressForm } from '../../../shared/ton/address.js';
import { ParamError } from '../errors.js';
import { INT32_MAX, INT32_MIN, optional, parseHash, query, withDefault } from './common.js';
import { V2BlockIdExt } from './records.js';

/**
 * Parameters and results of the v2 read operations (api-v2.md §3.5–3.6 and the C++ ton-http-api's account,
 * transaction, block and utility handlers), with that server's validation texts (`empty address`, `failed to parse
 * address`, `failed to parse <name>`, `<name> should be positive`…); every validation error is 422.
 */

const u64 = z.string().regex(/^\d+$/);

/** An address in any form, as the raw upper-case form; missing → `empty address` (the C++ handlers' text). */
const v2Address = (description: string) =>
  withDefault({ type: 'string', description }, (raw, name) => {
    if (raw === undefined) throw new ParamError(name === 'address' ? 'empty address' : `empty ${name} address`);
    try {
      return parseAddress(raw);
    } catch (e) {
      if (e instanceof AddressParseError) throw new ParamError(`failed to parse ${name}`);
      throw e;
    }
  });

/** The address text as given (detectAddress / packAddress / unpackAddress read its form themselves). */
const v2AddressText = withDefault({ type: 'string', description: 'Address in any form.' }, (raw) => {
  if (raw === undefined) throw new ParamError('empty address');
  return raw;
});

function int(raw: string, name: string, min: number | bigint, max: number | bigint): bigint {
  if (!/^[+-]?\d+$/.test(raw)) throw new ParamError(`failed to parse ${name}`);
  const v = BigInt(raw);
  if (v < BigInt(min) || v > BigInt(max)) throw new ParamError(`failed to parse ${name}`);
  return v;
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

const int32Opt = (description: string) => optional({ type: 'integer', format: 'int32', description }, (raw, name) => Number(int(raw, name, INT32_MIN, INT32_MAX)));
const int32Req = (description: string) =>
  withDefault({ type: 'integer', format: 'int32', description }, (raw, name) => {
    if (raw === undefined) throw new ParamError(`${name} required`);
    return Number(int(raw, name, INT32_MIN, INT32_MAX));
  });
/** A signed 64-bit decimal, returned as its decimal text. */
const int64Opt = (description: string) => optional({ type: 'integer', format: 'int64', description }, (raw, name) => int(raw, name, INT64_MIN, INT64_MAX).toString());
const hashOpt = (description: string) =>
  optional({ type: 'string', description }, (raw, name) => {
    try {
      return parseHash(raw, name);
    } catch {
      throw new ParamError(`failed to parse ${name}`);
    }
  });
/** A shard: signed decimal int64, returned as the unsigned decimal the store keeps. */
const shardReq = withDefault({ type: 'string', description: 'Shard as a signed decimal int64, e.g. `-9223372036854775808`.' }, (raw, name) => {
  if (raw === undefined) throw new ParamError(`${name} required`);
  return BigInt.asUintN(64, int(raw, name, INT64_MIN, INT64_MAX)).toString();
});
const boolOpt = (description: string) =>
  optional({ type: 'boolean', description }, (raw, name) => {
    if (['1', 'true', 'True', 'TRUE'].includes(raw)) return true;
    if (['0', 'false', 'False', 'FALSE'].includes(raw)) return false;
    throw new ParamError(`failed to parse ${name}`);
  });

export const V2AccountQuery = query({
  address: v2Address('Account address in any form.'),
  seqno: int32Opt('Masterchain seqno of the state (optional; default: the newest).'),
});

export const V2AddressQuery = query({ address: v2AddressText });

export const V2TransactionsQuery = query({
  address: v2Address('Account address in any form.'),
  limit: int32Opt('Maximum number of transactions (default 10, at most 1000).'),
  lt: int64Opt('Logical time of the transaction to start with (with `hash`).'),
  hash: hashOpt('Hash of the transaction to start with (with `lt`), base64 or hex.'),
  to_lt: int64Opt('Logical time to stop at (exclusive).'),
  archival: boolOpt('Accepted for compatibility: the index holds what it holds.'),
});

export const V2SeqnoQueryRead = query({ seqno: int32Req('Masterchain block seqno.') });

export const V2LookupBlockQuery = query({
  workchain: int32Req('Block workchain.'),
  shard: shardReq,
  seqno: int32Opt('Block seqno.'),
  lt: int64Opt('A logical time inside the block.'),
  unixtime: int32Opt('A unix time: the newest block generated at or before it.'),
});

export const V2BlockTransactionsQuery = query({
  workchain: int32Req('Block workchain.'),
  shard: shardReq,
  seqno: int32Req('Block seqno.'),
  root_hash: hashOpt('Block root hash (optional).'),
  file_hash: hashOpt('Block file hash (optional).'),
  after_lt: int64Opt('Continue after the transaction with this lt (with `after_hash`).'),
  after_hash: hashOpt('Continue after this account (its 256-bit id, base64 or hex; with `after_lt`).'),
  count: int32Opt('Maximum number of transactions (default 40).'),
});

export const V2ShardBlockProofQuery = query({
  workchain: int32Req('Block workchain.'),
  shard: shardReq,
  seqno: int32Req('Block seqno.'),
  from_seqno: int32Opt('Masterchain seqno to prove from.'),
});

export const V2LocateTxQuery = query({
  source: v2Address('Source address of the message.'),
  destination: v2Address('Destination address of the message.'),
  created_lt: withDefault({ type: 'integer', format: 'int64', description: 'Creation lt of the message.' }, (raw, name) => {
    if (raw === undefined) throw new ParamError(`${name} required`);
    return int(raw, name, INT64_MIN, INT64_MAX).toString();
  }),
});

export const V2ConfigParamQuery = query({
  config_id: int32Opt('Config parameter number.'),
  param: int32Opt('Config parameter number (alias of config_id).'),
  seqno: int32Opt('Masterchain seqno.'),
});

export const V2ConfigAllQuery = query({ seqno: int32Opt('Masterchain seqno.') });

/** As {@link v2Address}, keeping the form the address was written in (getTokenData echoes it). */
const v2AddressForm = (description: string) =>
  withDefault({ type: 'string', description }, (raw, name) => {
    if (raw === undefined) throw new ParamError('empty address');
    try {
      return parseAddressForm(raw);
    } catch (e) {
      if (e instanceof AddressParseError) throw new ParamError(`failed to parse ${name}`);
      throw e;
    }
  });

export const V2TokenDataQuery = query({
  address: v2AddressForm('Jetton or NFT contract address in any form.'),
  seqno: int32Opt('Masterchain seqno of the state (optional; default: the newest).'),
});

// ---------------------------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------------------------

const envelope = <T extends z.ZodType>(result: T, id: string) => z.object({ ok: z.literal(true), result }).meta({ id });
const extraField = { '@extra': z.string() };

const ExtraCurrency = z.object({ '@type': z.literal('extraCurrency'), id: z.number().int(), amount: z.string() });
const TransactionId = z.object({ '@type': z.literal('internal.transactionId'), lt: u64, hash: z.string() });
const AccountAddress = z.object({ '@type': z.literal('accountAddress'), account_address: z.string() });
const State = z.enum(['active', 'uninitialized', 'frozen']);

export const V2FullAccountStateResult = z.object({
  '@type': z.literal('raw.fullAccountState'),
  balance: u64,
  extra_currencies: z.array(ExtraCurrency),
  last_transaction_id: TransactionId,
  block_id: V2BlockIdExt,
  code: z.string(),
  data: z.string(),
  frozen_hash: z.string(),
  sync_utime: z.number().int(),
  state: State,
  ...extraField,
});
export const V2AddressInformationResponse = envelope(V2FullAccountStateResult, 'V2AddressInformationResponse');

const AccountStateObject = z.union([
  z.object({ '@type': z.literal('raw.accountState'), code: z.string(), data: z.string(), frozen_hash: z.string() }),
  z.object({ '@type': z.enum(['wallet.v3.accountState', 'wallet.v4.accountState']), wallet_id: z.number().int(), seqno: z.number().int() }),
  z.object({ '@type': z.literal('uninited.accountState'), frozen_hash: z.string() }),
]);

export const V2ExtendedAddressInformationResponse = envelope(
  z.object({
    '@type': z.literal('fullAccountState'),
    address: AccountAddress,
    balance: u64,
    extra_currencies: z.array(ExtraCurrency),
    last_transaction_id: TransactionId,
    block_id: V2BlockIdExt,
    sync_utime: z.number().int(),
    account_state: AccountStateObject,
    revision: z.number().int(),
    ...extraField,
  }),
  'V2ExtendedAddressInformationResponse',
);

export const V2WalletInformationResult = z.object({
  '@type': z.literal('ext.accounts.walletInformation'),
  wallet: z.boolean(),
  balance: u64,
  account_state: State,
  last_transaction_id: TransactionId,
  wallet_type: z.string().optional(),
  seqno: z.number().int().optional(),
  wallet_id: z.number().int().optional(),
  is_signature_allowed: z.boolean().optional(),
});
export const V2WalletInformationResponse = envelope(V2WalletInformationResult, 'V2WalletInformationResponse');

export const V2StringResponse = envelope(z.string(), 'V2StringResponse');

const MsgData = z.union([
  z.object({ '@type': z.literal('msg.dataRaw'), body: z.string(), init_state: z.string() }),
  z.object({ '@type': z.enum(['msg.dataText', 'msg.dataEncryptedText']), text: z.string() }),
]);

const Message = z.object({
  '@type': z.literal('ext.message'),
  hash: z.string(),
  source: z.string(),
  destination: z.string(),
  value: u64,
  extra_currencies: z.array(ExtraCurrency),
  fwd_fee: u64,
  ihr_fee: u64,
  created_lt: u64,
  body_hash: z.string(),
  msg_data: MsgData,
  message: z.string().optional(),
});

/** The C++ server's `raw.message` of getBlockTransactionsExt: addresses as `accountAddress` objects, no `message`. */
const MessageStd = z.object({
  '@type': z.literal('raw.message'),
  hash: z.string(),
  source: AccountAddress,
  destination: AccountAddress,
  value: u64,
  extra_currencies: z.array(ExtraCurrency),
  fwd_fee: u64,
  ihr_fee: u64,
  created_lt: u64,
  body_hash: z.string(),
  msg_data: MsgData,
});

const AnyMessage = z.union([Message, MessageStd]);

export const V2Transaction = z.object({
  '@type': z.enum(['ext.transaction', 'raw.transactionExt']),
  address: AccountAddress,
  account: z.string(),
  utime: z.number().int(),
  data: z.string(),
  transaction_id: TransactionId,
  fee: u64,
  storage_fee: u64,
  other_fee: u64,
  in_msg: AnyMessage.optional(),
  out_msgs: z.array(AnyMessage),
});

export const V2TransactionsResponse = envelope(z.array(V2Transaction), 'V2TransactionsResponse');
export const V2TransactionResponse = envelope(V2Transaction, 'V2TransactionResponse');

export const V2LookupBlockResponse = envelope(V2BlockIdExt.extend(extraField), 'V2LookupBlockResponse');

export const V2ShardsResponse = envelope(
  z.object({ '@type': z.literal('blocks.shards'), shards: z.array(V2BlockIdExt), ...extraField }),
  'V2ShardsResponse',
);

export const V2BlockTransactionsResponse = envelope(
  z.object({
    '@type': z.literal('blocks.transactions'),
    id: V2BlockIdExt,
    req_count: z.number().int(),
    incomplete: z.boolean(),
    transactions: z.array(
      z.object({ '@type': z.literal('blocks.shortTxId'), mode: z.number().int(), account: z.string(), lt: u64, hash: z.string() }),
    ),
    ...extraField,
  }),
  'V2BlockTransactionsResponse',
);

export const V2BlockTransactionsExtResponse = envelope(
  z.object({
    '@type': z.literal('blocks.transactionsExt'),
    id: V2BlockIdExt,
    req_count: z.number().int(),
    incomplete: z.boolean(),
    transactions: z.array(V2Transaction),
    ...extraField,
  }),
  'V2BlockTransactionsExtResponse',
);

const Variant = z.object({ '@type': z.literal('ext.utils.detectedAddressVariant'), b64: z.string(), b64url: z.string() });
export const V2DetectAddressResponse = envelope(
  z.object({
    '@type': z.literal('ext.utils.detectedAddress'),
    raw_form: z.string(),
    bounceable: Variant,
    non_bounceable: Variant,
    given_type: z.enum(['raw_form', 'friendly_bounceable', 'friendly_non_bounceable']),
    test_only: z.boolean(),
  }),
  'V2DetectAddressResponse',
);

export const V2ConfigInfoResponse = envelope(
  z.object({ '@type': z.literal('configInfo'), config: z.object({ '@type': z.literal('tvm.cell'), bytes: z.string() }), ...extraField }),
  'V2ConfigInfoResponse',
);

const TokenContent = z.object({
  type: z.enum(['onchain', 'offchain']),
  data: z.union([z.string(), z.record(z.string(), z.string())]),
});
const tokenAddress = z.string();

/** getTokenData (the C++ ton-http-api's `TokenData`): one of four objects by `@type` / `contract_type`. */
export const V2TokenDataResponse = envelope(
  z.union([
    z.object({
      '@type': z.literal('ext.tokens.jettonMasterData'),
      address: tokenAddress,
      contract_type: z.literal('jetton_master'),
      total_supply: z.string(),
      mintable: z.boolean(),
      admin_address: tokenAddress.optional(),
      jetton_content: TokenContent,
      jetton_wallet_code: z.string(),
    }),
    z.object({
      '@type': z.literal('ext.tokens.jettonWalletData'),
      address: tokenAddress,
      contract_type: z.literal('jetton_wallet'),
      balance: z.string(),
      owner: tokenAddress,
      jetton: tokenAddress,
      mintless_is_claimed: z.boolean().optional(),
      jetton_wallet_code: z.string(),
    }),
    z.object({
      '@type': z.literal('ext.tokens.nftCollectionData'),
      address: tokenAddress,
      contract_type: z.literal('nft_collection'),
      next_item_index: z.string(),
      owner_address: tokenAddress.optional(),
      collection_content: TokenContent,
    }),
    z.object({
      '@type': z.literal('ext.tokens.nftItemData'),
      address: tokenAddress,
      contract_type: z.literal('nft_item'),
      init: z.boolean(),
      index: z.string(),
      collection_address: tokenAddress.optional(),
      owner_address: tokenAddress.optional(),
      content: TokenContent,
    }),
  ]),
  'V2TokenDataResponse',
);

/** Unused success schema of the operations that always answer an error here (their documented 200 is tonlib's). */
export const V2Unavailable = envelope(z.object({ '@type': z.string() }), 'V2UnavailableResponse');

