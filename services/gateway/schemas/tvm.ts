import { z } from 'zod';
import { V2BlockIdExt } from './records.js';

/**
 * Wire shapes of the TVM operations: v2 `runGetMethod`, `estimateFee`, `sendBoc`, `sendBocReturnHash`,
 * `sendQuery` (api-v2.md §3.7–3.9) and their v3 wrappers (api-v3.md §8.3–8.5). Request bodies are read by the
 * routes themselves (TON Center's own error texts and codes); these schemas document them.
 */

const v2Envelope = <T extends z.ZodType>(result: T, id: string) => z.object({ ok: z.literal(true), result }).meta({ id });

export const V2RunGetMethodBody = z
  .object({
    address: z.string(),
    method: z.union([z.string(), z.number().int()]).meta({ description: 'name, or numeric method id' }),
    stack: z.array(z.array(z.unknown())).optional().meta({ description: '`[type, value]` entries: num, cell, slice, tvm.Cell, tvm.Slice' }),
    seqno: z.number().int().optional().meta({ description: 'run on the state after this masterchain block' }),
  })
  .meta({ id: 'V2RunGetMethodBody' });

export const V2EstimateFeeBody = z
  .object({
    address: z.string(),
    body: z.string().meta({ description: 'base64 BOC of the message body' }),
    init_code: z.string().optional(),
    init_data: z.string().optional(),
    ignore_chksig: z.boolean().optional().meta({ description: 'default true' }),
  })
  .meta({ id: 'V2EstimateFeeBody' });

export const V2SendBocBody = z.object({ boc: z.string().meta({ description: 'base64 BOC of a signed external message' }) }).meta({ id: 'V2SendBocBody' });

export const V2SendQueryBody = z
  .object({ address: z.string(), body: z.string(), init_code: z.string().optional(), init_data: z.string().optional() })
  .meta({ id: 'V2SendQueryBody' });

const transactionId = z.object({ '@type': z.literal('internal.transactionId'), lt: z.string(), hash: z.string() });

export const V2RunResult = v2Envelope(
  z.object({
    '@type': z.literal('smc.runResult'),
    gas_used: z.number().int(),
    stack: z.array(z.tuple([z.string(), z.unknown()])),
    exit_code: z.number().int(),
    block_id: V2BlockIdExt,
    last_transaction_id: transactionId,
    '@extra': z.string(),
  }),
  'V2RunGetMethodResponse',
);

const v2Fees = z.object({ '@type': z.literal('fees'), in_fwd_fee: z.number().int(), storage_fee: z.number().int(), gas_fee: z.number().int(), fwd_fee: z.number().int() });

export const V2Fees = v2Envelope(
  z.object({ '@type': z.literal('query.fees'), source_fees: v2Fees, destination_fees: z.array(v2Fees), '@extra': z.string() }),
  'V2EstimateFeeResponse',
);

export const V2Ok = v2Envelope(z.object({ '@type': z.literal('ok'), '@extra': z.string() }), 'V2OkResponse');

export const V2ExtMessageInfo = v2Envelope(
  z.object({ '@type': z.literal('raw.extMessageInfo'), hash: z.string(), hash_norm: z.string(), '@extra': z.string() }),
  'V2ExtMessageInfoResponse',
);

export const V3RunGetMethodBody = z
  .object({
    address: z.string(),
    method: z.string(),
    stack: z.array(z.object({ type: z.string(), value: z.unknown() })).optional(),
  })
  .meta({ id: 'V2RunGetMethodRequest' });

export const V3EstimateFeeBody = z
  .object({ address: z.string(), body: z.string(), init_code: z.string().optional(), init_data: z.string().optional(), ignore_chksig: z.boolean().optional() })
  .meta({ id: 'V2EstimateFeeRequest' });

export const V3SendMessageBody = z.object({ boc: z.string() }).meta({ id: 'V2SendMessageRequest' });

type StackEntity = { type: string; value: unknown };
const V3StackEntity: z.ZodType<StackEntity> = z.object({ type: z.string(), value: z.unknown() }).meta({ id: 'V2StackEntity' });

export const V3RunGetMethodResult = z
  .object({ gas_used: z.number().int(), exit_code: z.number().int(), stack: z.array(V3StackEntity) })
  .meta({ id: 'V2RunGetMethodResult' });

const v3Fee = z.object({ in_fwd_fee: z.number().int(), storage_fee: z.number().int(), gas_fee: z.number().int(), fwd_fee: z.number().int() }).meta({ id: 'V2EstimatedFee' });

export const V3EstimateFeeResult = z.object({ source_fees: v3Fee, destination_fees: z.array(v3Fee) }).meta({ id: 'V2EstimateFeeResult' });

export const V3SendMessageResult = z.object({ message_hash: z.string(), message_hash_norm: z.string() }).meta({ id: 'V2SendMessageResult' });
