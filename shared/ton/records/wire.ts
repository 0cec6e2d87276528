import { z } from 'zod';

/**
 * The v3 records as TON Center prints them (api-v3.md §0.4, §1), declared once as zod schemas: the gateway validates
 * its responses against them and derives its OpenAPI document from them, and the record types of the decoder
 * (transaction.ts, message.ts, block.ts) and of the gateway's data layer are derived from them. Field names, order
 * and JSON types are TON Center's: 64-bit numbers are strings, hashes standard base64, addresses raw upper case,
 * shards upper-case hex, opcodes `"0x%08x"` strings, `finality` a string. `.nullable()` is a field TON Center prints
 * as `null`; `.optional()` a field it omits ("omitted when null/empty").
 */

export const u64 = (description?: string) => z.string().regex(/^\d+$/).meta(description ? { description, example: '0' } : { example: '0' });
export const hash = z.string().meta({ description: 'standard base64 (44 characters)' });
export const rawAddress = z.string().meta({ description: 'raw address, upper case (`0:ABCD…`)' });
export const extraCurrencies = z.record(z.string(), z.string()).meta({ description: '`{"<currency id>": "<decimal amount>"}`' });

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

export const MsgSize = z.object({ cells: u64(), bits: u64() });

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

/** What the schemas above admit: the record types both services use. */
export type WireBlockId = z.output<typeof BlockId>;
export type WireBlock = z.output<typeof Block>;
export type WireMessageContent = z.output<typeof MessageContent>;
export type WireMessage = z.output<typeof Message>;
export type WireAccountState = z.output<typeof AccountState>;
export type WireTransactionDescr = z.output<typeof TransactionDescr>;
export type WireTransaction = z.output<typeof Transaction>;
/** TL-B AccountStatus as TON Center names it. */
export type WireAccountStatus = WireTransaction['orig_status'];
