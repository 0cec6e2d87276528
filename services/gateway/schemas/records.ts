import { z } from 'zod';
import { Block, Message, Transaction, extraCurrencies, hash, rawAddress, u64 } from '../../../shared/ton/records/wire.js';

/**
 * The wire records of TON Center v3 (api-v3.md §0.4, §1, §2, §8) as zod schemas: the response side of the OpenAPI
 * document, and the shapes the tests hold every response to. The records themselves (Block, Message, Transaction, …)
 * are declared once in shared/ton/records/wire.ts; these are the responses made of them. Field names, order and JSON types are TON Center's:
 * 64-bit numbers are strings, hashes standard base64, addresses raw upper case, shards upper-case hex, opcodes
 * `"0x%08x"` strings, `finality` a string. `.nullable()` is a field TON Center prints as `null`; `.optional()` a
 * field it omits ("omitted when null/empty").
 */

export { AccountState, Block, BlockId, Message, MessageContent, Transaction, TransactionDescr } from '../../../shared/ton/records/wire.js';

export const BlocksResponse = z.object({ blocks: z.array(Block) }).meta({ id: 'BlocksResponse' });
export const MasterchainInfo = z.object({ first: Block, last: Block }).meta({ id: 'MasterchainInfo' });

export const AddressBookRow = z
  .object({
    user_friendly: z.string().nullable(),
    domain: z.string().nullable(),
    interfaces: z.array(z.string()),
  })
  .meta({ id: 'AddressBookRow' });
export const AddressBook = z.record(z.string(), AddressBookRow).meta({ id: 'AddressBook', description: 'keyed by raw address' });
export const Metadata = z
  .record(z.string(), z.object({ is_indexed: z.boolean(), token_info: z.array(z.record(z.string(), z.unknown())) }))
  .meta({ id: 'Metadata', description: 'token metadata by raw address; empty until token indexing exists' });

export const TransactionsResponse = z
  .object({ transactions: z.array(Transaction), address_book: AddressBook })
  .meta({ id: 'TransactionsResponse' });

export const MessagesResponse = z
  .object({ messages: z.array(Message), address_book: AddressBook, metadata: Metadata })
  .meta({ id: 'MessagesResponse' });

export const AccountStateFull = z
  .object({
    address: rawAddress,
    account_state_hash: hash,
    balance: u64(),
    extra_currencies: extraCurrencies.nullable(),
    status: z.enum(['uninit', 'frozen', 'active', 'nonexist']),
    frozen_hash: hash.optional(),
    last_transaction_hash: hash.nullable(),
    last_transaction_lt: u64().nullable(),
    data_hash: hash.optional(),
    code_hash: hash.optional(),
    data_boc: z.string().optional(),
    code_boc: z.string().optional(),
    contract_methods: z.array(z.number().int()).nullable(),
    interfaces: z.array(z.string()),
  })
  .meta({ id: 'AccountStateFull' });

export const AccountStatesResponse = z
  .object({ accounts: z.array(AccountStateFull), address_book: AddressBook, metadata: Metadata })
  .meta({ id: 'AccountStatesResponse' });

export const WalletState = z
  .object({
    address: rawAddress,
    is_wallet: z.boolean(),
    wallet_type: z.string().optional(),
    seqno: z.number().int().optional(),
    wallet_id: z.number().int().optional(),
    is_signature_allowed: z.boolean().optional(),
    balance: u64(),
    extra_currencies: extraCurrencies.optional(),
    status: z.enum(['uninit', 'frozen', 'active', 'nonexist']),
    code_hash: hash.nullable(),
    last_transaction_hash: hash.nullable(),
    last_transaction_lt: u64().nullable(),
  })
  .meta({ id: 'WalletState' });

export const WalletStatesResponse = z
  .object({ wallets: z.array(WalletState), address_book: AddressBook, metadata: Metadata })
  .meta({ id: 'WalletStatesResponse' });

export const AccountBalance = z.object({ account: rawAddress, balance: u64() }).meta({ id: 'AccountBalance' });

export const V2AddressInformation = z
  .object({
    balance: u64(),
    code: z.string().nullable(),
    data: z.string().nullable(),
    last_transaction_lt: u64().nullable(),
    last_transaction_hash: hash.nullable(),
    frozen_hash: z.string().nullable(),
    status: z.string(),
  })
  .meta({ id: 'V2AddressInformation' });

export const V2WalletInformation = z
  .object({
    balance: u64(),
    wallet_type: z.string().optional(),
    seqno: z.number().int().optional(),
    wallet_id: z.number().int().optional(),
    last_transaction_lt: u64(),
    last_transaction_hash: hash,
    status: z.string(),
  })
  .meta({ id: 'V2WalletInformation' });

export const IndexError = z.object({ error: z.string() }).meta({ id: 'IndexError', description: 'every v3 error: `{"error": "<message>"}`' });

// ---------------------------------------------------------------------------------------------------------------
// API v2 (api-v2.md §2, §3): tonlib objects with `@type`, in the `{ok, result}` envelope.
// ---------------------------------------------------------------------------------------------------------------

export const V2BlockIdExt = z
  .object({
    '@type': z.literal('ton.blockIdExt'),
    workchain: z.number().int(),
    shard: z.string().meta({ description: 'signed decimal int64', example: '-9223372036854775808' }),
    seqno: z.number().int(),
    root_hash: hash,
    file_hash: hash,
  })
  .meta({ id: 'V2BlockIdExt' });

const v2Envelope = <T extends z.ZodType>(result: T, id: string) =>
  z.object({ ok: z.literal(true), result, '@extra': z.string().optional() }).meta({ id });

export const V2MasterchainInfo = v2Envelope(
  z.object({
    '@type': z.literal('blocks.masterchainInfo'),
    last: V2BlockIdExt,
    state_root_hash: z.string(),
    init: V2BlockIdExt,
    '@extra': z.string(),
  }),
  'V2MasterchainInfoResponse',
);

export const V2BlockHeader = v2Envelope(
  z.object({
    '@type': z.literal('blocks.header'),
    id: V2BlockIdExt,
    global_id: z.number().int(),
    version: z.number().int(),
    flags: z.number().int(),
    after_merge: z.boolean(),
    after_split: z.boolean(),
    before_split: z.boolean(),
    want_merge: z.boolean(),
    want_split: z.boolean(),
    validator_list_hash_short: z.number().int(),
    catchain_seqno: z.number().int(),
    min_ref_mc_seqno: z.number().int(),
    is_key_block: z.boolean(),
    prev_key_block_seqno: z.number().int(),
    start_lt: u64(),
    end_lt: u64(),
    gen_utime: z.number().int(),
    vert_seqno: z.number().int(),
    prev_blocks: z.array(V2BlockIdExt),
    '@extra': z.string(),
  }),
  'V2BlockHeaderResponse',
);

export const V2ConsensusBlock = v2Envelope(
  z.object({
    '@type': z.literal('ext.blocks.consensusBlock'),
    consensus_block: z.number().int(),
    timestamp: z.number(),
    '@extra': z.string(),
  }),
  'V2ConsensusBlockResponse',
);

export const V2BlockSignatures = v2Envelope(
  z.object({
    '@type': z.literal('blocks.blockSignatures'),
    id: V2BlockIdExt,
    signatures: z.array(z.object({ '@type': z.literal('blocks.signature'), node_id_short: hash, signature: z.string() })),
    '@extra': z.string(),
  }),
  'V2BlockSignaturesResponse',
);

export const V2ShardBlockProof = v2Envelope(
  z.object({
    '@type': z.literal('blocks.shardBlockProof'),
    from: V2BlockIdExt,
    mc_id: V2BlockIdExt,
    links: z.array(z.object({ '@type': z.literal('blocks.shardBlockLink'), id: V2BlockIdExt, proof: z.string().meta({ description: 'Merkle proof BOC, base64' }) })),
    mc_proof: z.array(
      z.object({
        '@type': z.literal('blocks.blockLinkBack'),
        to_key_block: z.boolean(),
        from: V2BlockIdExt,
        to: V2BlockIdExt,
        dest_proof: z.string(),
        proof: z.string(),
        state_proof: z.string(),
      }),
    ),
    '@extra': z.string(),
  }),
  'V2ShardBlockProofResponse',
);

export const V2Error = z
  .object({ ok: z.literal(false), error: z.string(), code: z.number().int() })
  .meta({ id: 'V2Error', description: 'v2 error envelope; HTTP status == code' });

export const JsonRpcResponse = z
  .object({
    ok: z.boolean(),
    result: z.unknown().optional(),
    error: z.string().optional(),
    code: z.number().int().optional(),
    jsonrpc: z.literal('2.0'),
    id: z.unknown(),
  })
  .meta({ id: 'V2JsonRpcResponse', description: "The operation's v2 envelope plus `jsonrpc` and the request's `id`" });

