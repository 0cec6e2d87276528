import { z } from 'zod';

/**
 * The wire records of TON Center v3 (api-v3.md §0.4, §1, §2, §8) as zod schemas: the response side of the OpenAPI
 * document, and the shapes the tests hold every response to. Field names, order and JSON types are TON Center's:
 * 64-bit numbers are strings, hashes standard base64, addresses raw upper case, shards upper-case hex, opcodes
 * `"0x%08x"` strings, `finality` a string. `.nullable()` is a field TON Center prints as `null`; `.optional()` a
 * field it omits ("omitted when null/empty").
 */

const u64 = (description?: string) => z.string().regex(/^\d+$/).meta(description ? { description, example: '0' } : { example: '0' });
const hash = z.string().meta({ description: 'standard base64 (44 characters)' });
const rawAddress = z.string().meta({ description: 'raw address, upper case (`0:ABCD…`)' });
const extraCurrencies = z.record(z.string(), z.string()).meta({ description: '`{"<currency id>": "<decimal amount>"}`' });

export const BlockId = z
  .object({
    workchain: z.number().int(),
    shard: z.string().meta({ description: 'upper-case hex, unpadded', example: '8000000000000000' }),
    seqno: z.number().int(),
  })
  .meta({ id: 'BlockId' });

export const Block = z
  .object({
    workchain: z.number().int(),
    shard: z.string().meta({ example: '8000000000000000' }),
    seqno: z.number().int(),
    root_hash: hash,
    file_hash: hash,
    global_id: z.number().int(),
    version: z.number().int(),
    after_merge: z.boolean(),
    before_split: z.boolean(),
    after_split: z.boolean(),
    want_merge: z.boolean(),
    want_split: z.boolean(),
    key_block: z.boolean(),
    vert_seqno_incr: z.boolean(),
    flags: z.number().int(),
    gen_utime: u64('unix time as a decimal string'),
    start_lt: u64(),
    end_lt: u64(),
    validator_list_hash_short: z.number().int(),
    gen_catchain_seqno: z.number().int(),
    min_ref_mc_seqno: z.number().int(),
    prev_key_block_seqno: z.number().int(),
    vert_seqno: z.number().int(),
    master_ref_seqno: z.number().int(),
    rand_seed: hash,
    created_by: hash,
    tx_count: z.number().int(),
    masterchain_block_ref: BlockId.nullable(),
    prev_blocks: z.array(BlockId),
  })
  .meta({ id: 'Block' });

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

export const MessageContent = z
  .object({ hash, body: z.string().meta({ description: 'base64 BoC' }), decoded: z.record(z.string(), z.unknown()).nullable() })
  .meta({ id: 'MessageContent' });

export const Message = z
  .object({
    hash,
    source: rawAddress.nullable(),
    destination: rawAddress.nullable(),
    value: u64().nullable(),
    value_extra_currencies: extraCurrencies.nullable(),
    fwd_fee: u64().nullable(),
    ihr_fee: u64().nullable(),
    created_lt: u64().nullable(),
    created_at: u64('unix time as a decimal string').nullable(),
    opcode: z.string().meta({ description: '`"0x%08x"`', example: '0x0f8a7ea5' }).nullable(),
    decoded_opcode: z.string().nullable(),
    ihr_disabled: z.boolean().nullable(),
    bounce: z.boolean().nullable(),
    bounced: z.boolean().nullable(),
    import_fee: u64().nullable(),
    extra_flags: u64().nullable(),
    in_msg_tx_hash: hash.optional(),
    out_msg_tx_hash: hash.optional(),
    message_content: MessageContent.nullable(),
    init_state: MessageContent.nullable(),
    hash_norm: hash.optional(),
  })
  .meta({ id: 'Message' });

export const AccountState = z
  .object({
    hash,
    balance: u64().nullable(),
    extra_currencies: extraCurrencies.nullable(),
    account_status: z.enum(['uninit', 'frozen', 'active', 'nonexist']).nullable(),
    frozen_hash: hash.nullable(),
    data_hash: hash.nullable(),
    code_hash: hash.nullable(),
  })
  .meta({ id: 'AccountState' });

const MsgSize = z.object({ cells: u64(), bits: u64() });

export const TransactionDescr = z
  .object({
    type: z.enum(['ord', 'storage', 'tick_tock', 'split_prepare', 'split_install', 'merge_prepare', 'merge_install']),
    aborted: z.boolean().optional(),
    destroyed: z.boolean().optional(),
    credit_first: z.boolean().optional(),
    is_tock: z.boolean().optional(),
    installed: z.boolean().optional(),
    storage_ph: z
      .object({ storage_fees_collected: u64(), storage_fees_due: u64().optional(), status_change: z.enum(['unchanged', 'frozen', 'deleted']) })
      .optional(),
    credit_ph: z.object({ due_fees_collected: u64().optional(), credit: u64(), credit_extra_currencies: extraCurrencies.optional() }).optional(),
    compute_ph: z
      .object({
        skipped: z.boolean(),
        reason: z.enum(['no_state', 'bad_state', 'no_gas', 'suspended']).optional(),
        success: z.boolean().optional(),
        msg_state_used: z.boolean().optional(),
        account_activated: z.boolean().optional(),
        gas_fees: u64().optional(),
        gas_used: u64().optional(),
        gas_limit: u64().optional(),
        gas_credit: u64().optional(),
        mode: z.number().int().optional(),
        exit_code: z.number().int().optional(),
        exit_arg: z.number().int().optional(),
        vm_steps: z.number().int().optional(),
        vm_init_state_hash: hash.optional(),
        vm_final_state_hash: hash.optional(),
      })
      .optional(),
    action: z
      .object({
        success: z.boolean(),
        valid: z.boolean(),
        no_funds: z.boolean(),
        status_change: z.enum(['unchanged', 'frozen', 'deleted']),
        total_fwd_fees: u64().optional(),
        total_action_fees: u64().optional(),
        result_code: z.number().int(),
        result_arg: z.number().int().optional(),
        tot_actions: z.number().int(),
        spec_actions: z.number().int(),
        skipped_actions: z.number().int(),
        msgs_created: z.number().int(),
        action_list_hash: hash,
        tot_msg_size: MsgSize,
      })
      .optional(),
    bounce: z
      .object({
        type: z.enum(['negfunds', 'nofunds', 'ok']),
        msg_size: MsgSize.optional(),
        req_fwd_fees: u64().optional(),
        msg_fees: u64().optional(),
        fwd_fees: u64().optional(),
      })
      .optional(),
    split_info: z
      .object({ cur_shard_pfx_len: z.number().int(), acc_split_depth: z.number().int(), this_addr: rawAddress, sibling_addr: rawAddress })
      .optional(),
  })
  .meta({ id: 'TransactionDescr' });

export const Transaction = z
  .object({
    account: rawAddress,
    hash,
    lt: u64(),
    now: z.number().int(),
    mc_block_seqno: z.number().int().nullable(),
    trace_id: hash.optional(),
    prev_trans_hash: hash,
    prev_trans_lt: u64(),
    orig_status: z.enum(['uninit', 'frozen', 'active', 'nonexist']),
    end_status: z.enum(['uninit', 'frozen', 'active', 'nonexist']),
    total_fees: u64(),
    total_fees_extra_currencies: extraCurrencies,
    description: TransactionDescr,
    block_ref: BlockId,
    in_msg: Message.nullable(),
    out_msgs: z.array(Message),
    account_state_before: AccountState,
    account_state_after: AccountState,
    emulated: z.boolean(),
    finality: z.enum(['pending', 'confirmed', 'finalized']).meta({ description: 'a string on the wire (the published spec says integer)' }),
  })
  .meta({ id: 'Transaction' });

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

