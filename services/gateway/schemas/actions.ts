import { z } from 'zod';
import { Transaction, hash, rawAddress, u64 } from '../../../shared/ton/records/wire.js';
import { ParamError } from '../errors.js';
import { P, list, query } from './common.js';
import { AddressBook, Metadata } from './records.js';

/** The action types TON Center's published spec enumerates for `action_type` / `exclude_action_type` (its server takes any). */
const SPEC_ACTION_TYPES = [
  'call_contract', 'contract_deploy', 'ton_transfer', 'auction_bid', 'change_dns', 'dex_deposit_liquidity', 'dex_withdraw_liquidity',
  'delete_dns', 'renew_dns', 'election_deposit', 'election_recover', 'jetton_burn', 'jetton_swap', 'jetton_transfer', 'jetton_mint',
  'nft_mint', 'tick_tock', 'stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request', 'subscribe', 'unsubscribe',
];

/** `action_type` / `exclude_action_type`: names of `[A-Za-z0-9_.]` only, else 422 `<param> contains invalid characters`. */
const actionTypes = (description: string) =>
  list({ description, items: { type: 'string', enum: SPEC_ACTION_TYPES } }, (raw, name) => {
    if (!/^[A-Za-z0-9_.]+$/.test(raw)) throw new ParamError(`${name} contains invalid characters`, 422);
    return raw;
  });

/** `supported_action_types`: versions (`v1`…`latest`), groups or types; the header `X-Actions-Version` replaces it. */
export const supportedActionTypes = () =>
  list(
    { description: 'Action types or versions (`v1`, `v2`, `latest`, group names) the client understands; default `latest`. The header `X-Actions-Version` replaces it.' },
    (raw) => raw,
  );

/** /api/v3/actions (api-v3.md §3.1): parameters as TON Center's published spec names them. */
export const ActionsQuery = query({
  account: P.address('Actions in which this account took part (any form).'),
  tx_hash: P.hashes('Actions that contain these transactions.'),
  msg_hash: P.hashes('Actions that contain a transaction with this message (raw or normalized hash).'),
  action_id: P.hashes('Action ids: only these actions (the other filters are dropped, the type filters kept).'),
  trace_id: P.hashes('Actions of these traces.'),
  mc_seqno: P.int32('Actions of traces that ended in the masterchain block with this seqno.'),
  start_utime: P.utime('Actions of traces whose `end_utime` is at or after this timestamp (orders by utime).'),
  end_utime: P.utime('Actions of traces whose `end_utime` is at or before this timestamp (orders by utime).'),
  start_lt: P.lt('Actions of traces whose `end_lt` is at or above this value.'),
  end_lt: P.lt('Actions of traces whose `end_lt` is at or below this value.'),
  action_type: actionTypes('Only actions of these types.'),
  exclude_action_type: actionTypes('No actions of these types.'),
  supported_action_types: supportedActionTypes(),
  include_accounts: P.boolDefault('Add each action\'s `accounts` (raw addresses).', false),
  include_transactions: P.boolDefault('Add each action\'s transactions (`transactions_full`).', false),
  // ton-index-go's actions listing answers a limit above the maximum with 422 itself.
  limit: P.limit({ status: 422 }),
  offset: P.offset(),
  sort: P.sort('Sort actions by the end lt (utime with a utime window) of their trace, then trace id, action end, action id.'),
});

/** An action (api-v3.md §3.1 "Action record"); `details` has the shape of its type (shared/ton/actions/api.ts). */
export const Action = z
  .object({
    trace_id: hash.nullable(),
    action_id: hash,
    start_lt: u64(),
    end_lt: u64(),
    start_utime: z.number().int(),
    end_utime: z.number().int(),
    trace_end_lt: u64(),
    trace_end_utime: z.number().int(),
    trace_mc_seqno_end: z.number().int().nullable(),
    transactions: z.array(hash),
    success: z.boolean().nullable(),
    type: z.string(),
    details: z.record(z.string(), z.unknown()),
    trace_external_hash: hash.optional(),
    trace_external_hash_norm: hash.optional(),
    accounts: z.array(rawAddress).optional(),
    transactions_full: z.array(Transaction).optional(),
    finality: z.enum(['pending', 'confirmed', 'finalized']),
    raw_action: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'Action' });

export const ActionsResponse = z
  .object({ actions: z.array(Action), address_book: AddressBook, metadata: Metadata })
  .meta({ id: 'ActionsResponse' });
