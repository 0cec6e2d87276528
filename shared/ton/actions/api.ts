import { bodySlice, loadCommentText } from '../bodies/cell.js';
import { ENCRYPTED_COMMENT, TEXT_COMMENT } from '../bodies/TextComment.js';
import type { ActionRow } from './row.js';

/**
 * A stored action row → the Action record of TON Center API v3 (`/api/v3/actions`, `/api/v3/traces`), as
 * ton-index-go builds it from the `actions` row (`index/parse/actions.go` `ParseRawAction`; field names and
 * nullability in api-v3.md §3.1 "Action details per type"): generic columns and the type's composite are spread
 * into the type's `details` shape. `ton_transfer` / `call_contract` carrying extra currencies are sent as
 * `extra_currency_transfer`; a type with no details shape gets `{"error": "unsupported action type: '<t>'"}` and
 * the stored row as `raw_action`.
 *
 * The row is the JSON form the action stage stores (`rowToJson`: 64-bit numbers as decimal strings).
 */
export type StoredAction = { [K in keyof ActionRow]: ActionRow[K] extends bigint ? string : ActionRow[K] extends bigint | null ? string | null : ActionRow[K] };

type Obj = Record<string, unknown>;

/** A numeric column or subfield as the API prints it: a decimal string (Postgres numeric), null when unset. */
function num(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return typeof v === 'number' ? BigInt(Math.trunc(v)).toString() : v.toString();
  return null;
}

/** An integer field the Go model types as int. */
function int(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : v === null || v === undefined ? null : String(v);
}

function bool(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null;
}

/** The composite column `name` of the row (its subfields, or {} when the type did not write it). */
function part(r: Obj, name: string): Obj {
  const v = r[name];
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

/** Drops the keys in `omit` whose value is null (Go `omitempty` on pointer fields). */
function omitNull(o: Obj, omit: readonly string[]): Obj {
  for (const k of omit) if (o[k] === null || o[k] === undefined) delete o[k];
  return o;
}

/** `"0x%08x"` of the unsigned 32-bit opcode (api-v3.md §0.4). */
function opcodeHex(v: unknown): string | null {
  const n = int(v);
  return n === null ? null : `0x${(n >>> 0).toString(16).padStart(8, '0')}`;
}

/**
 * The comment in an NFT transfer's forward payload (ton-index-go `ParseCommentFromPayload`): a text comment
 * (`text_comment#00000000`), or the base64 of an encrypted one (`encrypted_comment#2167da4b`). A payload that is no
 * comment gives no comment and `is_encrypted_comment: false`; an unreadable BOC gives neither.
 */
export function commentFromPayload(payload: string | null): { comment: string | null; encrypted: boolean | null } {
  if (payload === null || payload === '') return { comment: null, encrypted: null };
  let s: ReturnType<typeof bodySlice>;
  try {
    s = bodySlice(payload);
  } catch {
    return { comment: null, encrypted: null };
  }
  try {
    if (s.remainingBits < 32) return { comment: null, encrypted: false };
    const op = s.loadUint(32);
    if (op !== TEXT_COMMENT && op !== ENCRYPTED_COMMENT) return { comment: null, encrypted: false };
    const bytes = loadCommentText(s);
    if (bytes === null) return { comment: null, encrypted: false };
    // Go's string of the bytes; its JSON encoder writes invalid UTF-8 as U+FFFD, as Buffer's decoder does.
    return op === ENCRYPTED_COMMENT
      ? { comment: Buffer.from(bytes).toString('base64'), encrypted: true }
      : { comment: Buffer.from(bytes).toString('utf8'), encrypted: false };
  } catch {
    return { comment: null, encrypted: false };
  }
}

const TON_TRANSFER_LIKE = new Set(['ton_transfer', 'call_contract']);

/** The API `type` of a stored row: `extra_currency_transfer` for a TON transfer or call carrying extra currencies. */
export function apiActionType(r: Pick<StoredAction, 'type' | 'value_extra_currencies'>): string {
  return TON_TRANSFER_LIKE.has(r.type) && Object.keys(r.value_extra_currencies ?? {}).length > 0 ? 'extra_currency_transfer' : r.type;
}

const swapTransfer = (t: Obj) => ({
  asset: str(t.asset),
  source: str(t.source),
  destination: str(t.destination),
  source_jetton_wallet: str(t.source_jetton_wallet),
  destination_jetton_wallet: str(t.destination_jetton_wallet),
  amount: num(t.amount),
});

/**
 * LayerZero's send and packet details (ton-index-go `ActionDetailsLayerZeroSendDetails` / `…Packet`): structs, so
 * always present with null fields; the Go model types the integers (request id, fees, eids, nonce) as numbers.
 */
const lzSendDetails = (r: Obj) => {
  const d = part(r, 'layerzero_send_data');
  return {
    send_request_id: int(d.send_request_id),
    msglib_manager: str(d.msglib_manager),
    msglib: str(d.msglib),
    uln: str(d.uln),
    native_fee: int(d.native_fee),
    zro_fee: int(d.zro_fee),
    endpoint: str(d.endpoint),
    channel: str(d.channel),
  };
};

const lzPacket = (r: Obj) => {
  const d = part(r, 'layerzero_packet_data');
  return {
    src_oapp: str(d.src_oapp),
    dst_oapp: str(d.dst_oapp),
    src_eid: int(d.src_eid),
    dst_eid: int(d.dst_eid),
    nonce: int(d.nonce),
    guid: str(d.guid),
    message: str(d.message),
  };
};

const stakingProvider = (p: unknown): string | null => (p === 'tonstakers' ? 'liquid_staking' : str(p));

/** `details` of a stored row, or null for a type the API has no shape for. */
export function actionDetails(row: StoredAction): Obj | null {
  const r = row as unknown as Obj;
  const source = str(r.source);
  const sourceSecondary = str(r.source_secondary);
  const destination = str(r.destination);
  const destinationSecondary = str(r.destination_secondary);
  const asset = str(r.asset);
  const assetSecondary = str(r.asset_secondary);
  const asset2 = str(r.asset2);
  const value = num(r.value);
  const amount = num(r.amount);
  switch (row.type) {
    case 'call_contract':
      return omitNull(
        { opcode: opcodeHex(r.opcode), source, destination, value, extra_currencies: row.value_extra_currencies ?? {} },
        ['opcode', 'source', 'destination', 'value'],
      );
    case 'contract_deploy':
      return omitNull({ opcode: opcodeHex(r.opcode), source, destination, value }, ['opcode', 'source', 'destination', 'value']);
    case 'ton_transfer': {
      const t = part(r, 'ton_transfer_data');
      return {
        source,
        destination,
        value,
        value_extra_currencies: row.value_extra_currencies ?? {},
        comment: str(t.content),
        encrypted: bool(t.encrypted),
      };
    }
    case 'auction_bid':
      return {
        amount: value,
        bidder: source,
        auction: destination,
        nft_item: assetSecondary,
        nft_collection: asset,
        nft_item_index: num(part(r, 'nft_transfer_data').nft_item_index),
      };
    case 'change_dns': {
      const d = part(r, 'change_dns_record_data');
      const schema = str(d.value_schema);
      const v = str(d.value);
      return {
        key: str(d.key),
        value: {
          sum_type: schema,
          dns_smc_address: schema === 'DNSSmcAddress' ? v : null,
          dns_adnl_address: schema === 'DNSAdnlAddress' ? v : null,
          dns_text: null,
          dns_next_resolver_address: schema === 'DNSNextResolver' ? v : null,
          // ton-index-go writes a DNSText value here too (api-v3.md §3.1 notes).
          dns_storage_address: schema === 'DNSStorageAddress' || schema === 'DNSText' ? v : null,
          flags: int(d.flags),
        },
        source,
        asset: destination,
        nft_collection: asset,
      };
    }
    case 'delete_dns':
      return { hash: str(part(r, 'change_dns_record_data').key), source, asset: destination, nft_collection: asset };
    case 'renew_dns':
      return { source, asset: destination, nft_collection: asset };
    case 'dex_deposit_liquidity': {
      const d = part(r, 'dex_deposit_liquidity_data');
      const dex = str(d.dex);
      const excesses = Array.isArray(d.vault_excesses) ? (d.vault_excesses as Obj[]) : [];
      return {
        dex,
        amount_1: num(d.amount1),
        amount_2: num(d.amount2),
        asset_1: str(d.asset1),
        asset_2: str(d.asset2),
        user_jetton_wallet_1: str(d.user_jetton_wallet_1),
        user_jetton_wallet_2: str(d.user_jetton_wallet_2),
        source,
        pool: destination,
        // DeDust deposits go through a deposit contract (destination_secondary); other DEXes take them at the pool.
        destination_liquidity: dex === 'dedust' ? destinationSecondary : destination,
        lp_tokens_minted: num(d.lp_tokens_minted),
        target_asset_1: str(d.target_asset_1),
        target_asset_2: str(d.target_asset_2),
        target_amount_1: num(d.target_amount_1),
        target_amount_2: num(d.target_amount_2),
        vault_excesses: excesses.map((e) => ({ asset: str(e.asset), amount: num(e.amount) })),
        tick_lower: num(d.tick_lower),
        tick_upper: num(d.tick_upper),
        nft_index: num(d.nft_index),
        nft_address: str(d.nft_address),
      };
    }
    case 'dex_withdraw_liquidity': {
      const d = part(r, 'dex_withdraw_liquidity_data');
      return {
        dex: str(d.dex),
        amount_1: num(d.amount1),
        amount_2: num(d.amount2),
        asset_1: str(d.asset1_out),
        asset_2: str(d.asset2_out),
        user_jetton_wallet_1: str(d.user_jetton_wallet_1),
        user_jetton_wallet_2: str(d.user_jetton_wallet_2),
        lp_tokens_burnt: num(d.lp_tokens_burnt),
        is_refund: null,
        source,
        pool: destination,
        destination_liquidity: destination,
        burnt_nft_index: num(d.burned_nft_index),
        burnt_nft_address: str(d.burned_nft_address),
        tick_lower: num(d.tick_lower),
        tick_upper: num(d.tick_upper),
      };
    }
    case 'election_deposit':
    case 'election_recover':
      return omitNull({ stake_holder: source, amount }, ['amount']);
    case 'jetton_burn':
      return { owner: source, owner_jetton_wallet: sourceSecondary, asset, amount };
    case 'jetton_swap': {
      const d = part(r, 'jetton_swap_data');
      const peers = Array.isArray(d.peer_swaps) ? (d.peer_swaps as Obj[]) : [];
      const out: Obj = {
        dex: str(d.dex),
        sender: source,
        asset_in: asset,
        asset_out: asset2,
        dex_incoming_transfer: swapTransfer(part(d, 'dex_incoming_transfer')),
        dex_outgoing_transfer: swapTransfer(part(d, 'dex_outgoing_transfer')),
        peer_swaps: peers.map((p) => ({ asset_in: str(p.asset_in), amount_in: num(p.amount_in), asset_out: str(p.asset_out), amount_out: num(p.amount_out) })),
      };
      // Only TONCO swaps carry min_out_amount (ton-index-go `ActionDetailsToncoJettonSwap`).
      if (out.dex === 'tonco') out.min_out_amount = num(d.min_out_amount);
      return out;
    }
    case 'jetton_transfer': {
      const d = part(r, 'jetton_transfer_data');
      return {
        asset,
        sender: source,
        receiver: destination,
        sender_jetton_wallet: sourceSecondary,
        receiver_jetton_wallet: destinationSecondary,
        amount,
        comment: str(d.comment),
        is_encrypted_comment: bool(d.is_encrypted_comment),
        query_id: num(d.query_id),
        response_destination: str(d.response_destination),
        custom_payload: str(d.custom_payload),
        forward_payload: str(d.forward_payload),
        forward_amount: num(d.forward_amount),
      };
    }
    case 'jetton_mint':
      return { asset, receiver: destination, receiver_jetton_wallet: destinationSecondary, amount, ton_amount: value };
    case 'nft_mint':
      return omitNull(
        { owner: source, nft_item: assetSecondary, nft_collection: asset, nft_item_index: num(part(r, 'nft_mint_data').nft_item_index) },
        ['owner'],
      );
    case 'nft_transfer':
    case 'nft_purchase': {
      const d = part(r, 'nft_transfer_data');
      const l = part(r, 'nft_listing_data');
      const forward = str(d.forward_payload);
      const c = commentFromPayload(forward);
      const purchase = row.type === 'nft_purchase';
      return omitNull(
        {
          nft_collection: asset,
          nft_item: assetSecondary,
          nft_item_index: num(d.nft_item_index),
          old_owner: source,
          new_owner: destination,
          is_purchase: bool(d.is_purchase),
          price: num(d.price),
          query_id: num(d.query_id),
          response_destination: str(d.response_destination),
          custom_payload: str(d.custom_payload),
          forward_payload: forward,
          forward_amount: num(d.forward_amount),
          comment: c.comment,
          is_encrypted_comment: c.encrypted,
          marketplace: d.is_purchase === true || purchase ? str(d.marketplace) : null,
          real_old_owner: str(d.real_prev_owner),
          marketplace_address: str(d.marketplace_address),
          payout_amount: num(d.payout_amount),
          payout_address: purchase ? str(d.real_prev_owner) : str(l.marketplace_fee_address),
          payout_comment: str(d.payout_comment),
          payout_comment_encrypted: bool(d.payout_comment_encrypted),
          payout_comment_encoded: bool(d.payout_comment_encoded),
          royalty_amount: num(d.royalty_amount),
          royalty_address: purchase ? null : str(l.royalty_address),
        },
        ['old_owner', 'price'],
      );
    }
    case 'dns_purchase': {
      const d = part(r, 'nft_transfer_data');
      return {
        nft_collection: asset,
        nft_item: assetSecondary,
        nft_item_index: num(d.nft_item_index),
        new_owner: destination,
        price: num(d.price),
        query_id: num(d.query_id),
        payout_amount: num(d.payout_amount),
      };
    }
    case 'dns_release': {
      const d = part(r, 'nft_transfer_data');
      return { query_id: num(d.query_id), source, nft_item: destination, nft_collection: asset, nft_item_index: num(d.nft_item_index), value };
    }
    case 'nft_put_on_sale': {
      const l = part(r, 'nft_listing_data');
      return {
        nft_collection: asset,
        nft_item: assetSecondary,
        nft_item_index: num(l.nft_item_index),
        owner: source,
        listing_address: sourceSecondary,
        sale_address: destination,
        marketplace_address: destinationSecondary,
        full_price: num(l.full_price),
        marketplace_fee: num(l.marketplace_fee),
        royalty_amount: num(l.royalty_amount),
        marketplace_fee_address: str(l.marketplace_fee_address),
        royalty_address: str(l.royalty_address),
        marketplace: str(l.marketplace),
      };
    }
    case 'nft_put_on_auction':
    case 'teleitem_start_auction': {
      const l = part(r, 'nft_listing_data');
      return {
        nft_collection: asset,
        nft_item: assetSecondary,
        nft_item_index: num(l.nft_item_index),
        owner: source,
        listing_address: sourceSecondary,
        auction_address: destination,
        marketplace_address: destinationSecondary,
        marketplace_fee_factor: num(l.mp_fee_factor),
        marketplace_fee_base: num(l.mp_fee_base),
        royalty_fee_base: num(l.royalty_fee_base),
        max_bid: num(l.max_bid),
        min_bid: num(l.min_bid),
        marketplace_fee_address: str(l.marketplace_fee_address),
        royalty_address: str(l.royalty_address),
        marketplace: str(l.marketplace),
      };
    }
    case 'nft_update_sale': {
      const d = part(r, 'nft_transfer_data');
      const l = part(r, 'nft_listing_data');
      return {
        source,
        sale_contract: destination,
        nft_address: assetSecondary,
        marketplace_address: str(d.marketplace_address),
        marketplace: str(d.marketplace) ?? str(l.marketplace),
        full_price: num(l.full_price),
        marketplace_fee: num(l.marketplace_fee),
        royalty_amount: num(l.royalty_amount),
      };
    }
    case 'nft_cancel_sale': {
      const d = part(r, 'nft_transfer_data');
      return {
        owner: source,
        nft_item: assetSecondary,
        nft_collection: asset,
        sale_address: destination,
        marketplace_address: str(d.marketplace_address),
        marketplace: str(d.marketplace),
      };
    }
    case 'nft_cancel_auction':
    case 'teleitem_cancel_auction':
    case 'nft_finish_auction': {
      const d = part(r, 'nft_transfer_data');
      return {
        owner: source,
        nft_item: assetSecondary,
        nft_collection: asset,
        auction_address: destination,
        marketplace_address: str(d.marketplace_address),
        marketplace: str(d.marketplace),
      };
    }
    case 'auction_outbid': {
      const t = part(r, 'ton_transfer_data');
      const d = part(r, 'nft_transfer_data');
      return omitNull(
        {
          auction_address: source,
          bidder: destination,
          new_bidder: sourceSecondary,
          nft_item: assetSecondary,
          nft_collection: asset,
          amount,
          // ton-index-go reads `ton_transfer_data.content`; the classifier writes the refund's comment under
          // `comment`, a key the Postgres composite type has not (actions.md S.4), so the insert drops it (a dict is
          // bound by its column names) and the live API omits the comment.
          comment: str(t.content),
          marketplace: str(d.marketplace),
        },
        ['comment', 'marketplace'],
      );
    }
    case 'nft_discovery':
      return { source, nft_item: assetSecondary, nft_collection: asset, nft_item_index: num(part(r, 'nft_transfer_data').nft_item_index) };
    case 'tick_tock':
      return {};
    case 'stake_deposit': {
      const s = part(r, 'staking_data');
      const provider = stakingProvider(s.provider);
      return omitNull(
        {
          provider,
          stake_holder: source,
          pool: destination,
          amount,
          tokens_minted: num(s.tokens_minted),
          asset,
          source_asset: provider === 'ethena' ? asset2 : null,
        },
        ['source_asset'],
      );
    }
    case 'stake_withdrawal': {
      const s = part(r, 'staking_data');
      return {
        provider: stakingProvider(s.provider),
        stake_holder: source,
        pool: destination,
        amount,
        payout_nft: str(s.ts_nft),
        tokens_burnt: num(s.tokens_burnt),
        asset,
      };
    }
    case 'stake_withdrawal_request': {
      const s = part(r, 'staking_data');
      const provider = stakingProvider(s.provider);
      // ton-index-go compares the provider after renaming, so its Tonstakers branch (tokens_burnt = amount) never runs.
      return omitNull(
        {
          provider,
          stake_holder: source,
          pool: destination,
          payout_nft: str(s.ts_nft),
          asset,
          tokens_burnt: provider === 'tonstakers' ? amount : null,
          tokens_minted: provider === 'ethena' ? num(s.tokens_minted) : null,
        },
        ['tokens_minted'],
      );
    }
    case 'subscribe':
      return omitNull({ subscriber: source, beneficiary: destination, subscription: destinationSecondary, amount }, ['beneficiary']);
    case 'unsubscribe':
      return omitNull({ subscriber: source, beneficiary: destination, subscription: destinationSecondary, amount }, ['beneficiary', 'amount']);
    case 'multisig_create_order': {
      const d = part(r, 'multisig_create_order_data');
      return {
        query_id: num(d.query_id),
        order_seqno: num(d.order_seqno),
        is_created_by_signer: bool(d.is_created_by_signer),
        is_signed_by_creator: bool(d.is_signed_by_creator),
        creator_index: int(d.creator_index),
        expiration_date: int(d.expiration_date),
        order_boc: str(d.order_boc),
        source,
        destination,
        destination_order: destinationSecondary,
      };
    }
    case 'multisig_approve': {
      const d = part(r, 'multisig_approve_data');
      return { signer_index: int(d.signer_index), exit_code: int(d.exit_code), source, destination };
    }
    case 'multisig_execute': {
      const d = part(r, 'multisig_execute_data');
      return {
        query_id: num(d.query_id),
        order_seqno: num(d.order_seqno),
        expiration_date: int(d.expiration_date),
        approvals_num: int(d.approvals_num),
        signers_hash: str(d.signers_hash),
        order_boc: str(d.order_boc),
        source,
        destination,
      };
    }
    case 'vesting_send_message': {
      const d = part(r, 'vesting_send_message_data');
      return { query_id: num(d.query_id), message_boc: str(d.message_boc), source, vesting: destination, destination: destinationSecondary, amount };
    }
    case 'vesting_add_whitelist': {
      const d = part(r, 'vesting_add_whitelist_data');
      return { query_id: num(d.query_id), accounts_added: Array.isArray(d.accounts_added) ? d.accounts_added : [], source, vesting: destination };
    }
    case 'evaa_supply': {
      const d = part(r, 'evaa_supply_data');
      return {
        sender_jetton_wallet: str(d.sender_jetton_wallet),
        recipient_jetton_wallet: str(d.recipient_jetton_wallet),
        master_jetton_wallet: str(d.master_jetton_wallet),
        master: str(d.master),
        asset_id: str(d.asset_id),
        is_ton: bool(d.is_ton),
        source,
        source_wallet: sourceSecondary,
        recipient: destination,
        recipient_contract: destinationSecondary,
        asset,
        amount,
      };
    }
    case 'evaa_withdraw': {
      const d = part(r, 'evaa_withdraw_data');
      return {
        recipient_jetton_wallet: str(d.recipient_jetton_wallet),
        master_jetton_wallet: str(d.master_jetton_wallet),
        master: str(d.master),
        fail_reason: str(d.fail_reason),
        asset_id: str(d.asset_id),
        source,
        recipient: destination,
        owner_contract: destinationSecondary,
        asset,
        amount,
      };
    }
    case 'evaa_liquidate': {
      const d = part(r, 'evaa_liquidate_data');
      const assetId = str(d.asset_id);
      const known = assetId === null ? { asset: null, known: false } : evaaAsset(assetId);
      return {
        fail_reason: str(d.fail_reason),
        debt_amount: num(d.debt_amount),
        source,
        borrower: destination,
        borrower_contract: destinationSecondary,
        collateral: asset,
        asset_id: assetId,
        asset: known.asset,
        is_known_asset: known.known,
        amount,
      };
    }
    case 'jvault_claim': {
      const d = part(r, 'jvault_claim_data');
      const jettons = Array.isArray(d.claimed_jettons) ? (d.claimed_jettons as unknown[]) : [];
      const amounts = Array.isArray(d.claimed_amounts) ? (d.claimed_amounts as unknown[]) : [];
      const claimed = jettons.length === amounts.length ? jettons.map((j, i) => ({ jetton: str(j), amount: num(amounts[i]) })) : [];
      return { claimed_rewards: claimed, source, stake_wallet: sourceSecondary, pool: destination };
    }
    case 'jvault_stake': {
      const d = part(r, 'jvault_stake_data');
      return {
        period: int(d.period),
        minted_stake_jettons: num(d.minted_stake_jettons),
        stake_wallet: str(d.stake_wallet),
        source,
        source_jetton_wallet: sourceSecondary,
        asset,
        pool: destination,
        amount,
      };
    }
    case 'jvault_unstake':
    case 'jvault_unstake_request':
      // The compute exit code travels in `opcode` (actions.md S.3).
      return { source, stake_wallet: sourceSecondary, pool: destination, amount, exit_code: int(r.opcode), asset, staking_asset: asset2 };
    case 'tgbtc_mint':
    case 'tgbtc_mint_fallback':
      return { source, destination, amount, asset, bitcoin_tx_id: assetSecondary, destination_wallet: destinationSecondary };
    case 'tgbtc_burn':
    case 'tgbtc_burn_fallback':
      return { source, source_wallet: sourceSecondary, destination, amount, asset };
    case 'tgbtc_new_key':
    case 'tgbtc_new_key_fallback':
      return { source, pubkey: sourceSecondary, coordinator: destination, pegout: destinationSecondary, amount, asset };
    case 'tgbtc_dkg_log_fallback':
      return { coordinator: source, pubkey: asset, timestamp: value };
    case 'tonco_deploy_pool': {
      const d = part(r, 'tonco_deploy_pool_data');
      return {
        source,
        pool: destinationSecondary,
        router: destination,
        router_jetton_wallet_1: str(d.jetton0_router_wallet),
        router_jetton_wallet_2: str(d.jetton1_router_wallet),
        jetton_minter_1: str(d.jetton0_minter),
        jetton_minter_2: str(d.jetton1_minter),
        tick_spacing: num(d.tick_spacing),
        initial_price_x96: num(d.initial_price_x96),
        protocol_fee: num(d.protocol_fee),
        lp_fee_base: num(d.lp_fee_base),
        lp_fee_current: num(d.lp_fee_current),
        pool_active: bool(d.pool_active),
      };
    }
    case 'coffee_create_pool': {
      const d = part(r, 'coffee_create_pool_data');
      return {
        source,
        source_jetton_wallet: sourceSecondary,
        initiator_1: str(d.initiator_1),
        initiator_2: str(d.initiator_2),
        pool: destination,
        pool_creator_contract: str(d.pool_creator_contract),
        provided_asset: str(d.provided_asset),
        amount,
        asset_1: asset,
        asset_2: asset2,
        amount_1: num(d.amount_1),
        amount_2: num(d.amount_2),
        lp_tokens_minted: num(d.lp_tokens_minted),
      };
    }
    case 'coffee_create_pool_creator':
      return {
        source,
        source_jetton_wallet: sourceSecondary,
        deposit_recipient: destination,
        pool_creator_contract: destinationSecondary,
        provided_asset: str(part(r, 'coffee_create_pool_data').provided_asset),
        asset_1: asset,
        asset_2: asset2,
        amount,
      };
    case 'coffee_create_vault':
      return { source, vault: destination, asset, value };
    case 'coffee_staking_deposit': {
      const d = part(r, 'coffee_staking_deposit_data');
      return {
        source,
        source_jetton_wallet: sourceSecondary,
        pool: destination,
        pool_jetton_wallet: destinationSecondary,
        asset,
        amount,
        minted_item_address: str(d.minted_item_address),
        minted_item_index: num(d.minted_item_index),
      };
    }
    case 'coffee_staking_withdraw': {
      const d = part(r, 'coffee_staking_withdraw_data');
      return {
        source,
        source_jetton_wallet: sourceSecondary,
        pool: destination,
        pool_jetton_wallet: destinationSecondary,
        asset,
        amount,
        nft_address: str(d.nft_address),
        nft_index: num(d.nft_index),
        points: num(d.points),
      };
    }
    case 'coffee_staking_claim_rewards':
      return { pool: source, pool_jetton_wallet: sourceSecondary, recipient: destination, recipient_jetton_wallet: destinationSecondary, asset, amount };
    case 'coffee_mev_protect_hold_funds':
      return { source, source_jetton_wallet: sourceSecondary, mev_contract: destination, mev_contract_jetton_wallet: destinationSecondary, asset, amount };
    case 'layerzero_send':
      return { initiator: source, layerzero_send_data: lzSendDetails(r), layerzero_packet_data: lzPacket(r) };
    case 'layerzero_send_tokens':
      return {
        sender: source,
        sender_wallet: sourceSecondary,
        oapp: destination,
        oapp_wallet: destinationSecondary,
        asset,
        amount,
        layerzero_send_data: lzSendDetails(r),
        layerzero_packet_data: lzPacket(r),
      };
    case 'layerzero_receive':
      return { sender: source, oapp: destination, channel: destinationSecondary, layerzero_packet_data: lzPacket(r) };
    case 'layerzero_commit_packet':
      return {
        sender: source,
        endpoint: sourceSecondary,
        uln: destination,
        uln_connection: destinationSecondary,
        channel: asset,
        msglib_connection: assetSecondary,
        layerzero_packet_data: lzPacket(r),
      };
    case 'layerzero_dvn_verify': {
      const d = part(r, 'layerzero_dvn_verify_data');
      return {
        initiator: source,
        nonce: int(d.nonce),
        status: str(d.status),
        dvn: str(d.dvn),
        proxy: str(d.proxy),
        uln: str(d.uln),
        uln_connection: str(d.uln_connection),
      };
    }
    case 'cocoon_worker_payout': {
      const d = part(r, 'cocoon_worker_payout_data');
      return {
        payout_type: str(d.payout_type),
        query_id: num(d.query_id),
        new_tokens: num(d.new_tokens),
        worker_state: int(d.worker_state),
        worker_tokens: num(d.worker_tokens),
        source,
        destination,
        amount,
      };
    }
    case 'cocoon_proxy_payout':
      return { query_id: num(part(r, 'cocoon_proxy_payout_data').query_id), source, destination };
    case 'cocoon_proxy_charge': {
      const d = part(r, 'cocoon_proxy_charge_data');
      return { query_id: num(d.query_id), new_tokens_used: num(d.new_tokens_used), expected_address: str(d.expected_address), source, destination };
    }
    case 'cocoon_client_top_up':
      return { query_id: num(part(r, 'cocoon_client_top_up_data').query_id), source, destination, amount };
    case 'cocoon_register_proxy':
      return { query_id: num(part(r, 'cocoon_register_proxy_data').query_id), destination };
    case 'cocoon_unregister_proxy': {
      const d = part(r, 'cocoon_unregister_proxy_data');
      return { query_id: num(d.query_id), seqno: int(d.seqno), destination };
    }
    case 'cocoon_client_register': {
      const d = part(r, 'cocoon_client_register_data');
      return { query_id: num(d.query_id), nonce: num(d.nonce), source, destination };
    }
    case 'cocoon_client_change_secret_hash': {
      const d = part(r, 'cocoon_client_change_secret_hash_data');
      return { query_id: num(d.query_id), new_secret_hash: str(d.new_secret_hash), source, destination };
    }
    case 'cocoon_client_request_refund': {
      const d = part(r, 'cocoon_client_request_refund_data');
      return { query_id: num(d.query_id), via_wallet: bool(d.via_wallet), source, destination };
    }
    case 'cocoon_grant_refund': {
      const d = part(r, 'cocoon_grant_refund_data');
      return {
        query_id: num(d.query_id),
        new_tokens_used: num(d.new_tokens_used),
        expected_address: str(d.expected_address),
        source,
        destination,
        amount,
      };
    }
    case 'cocoon_client_increase_stake': {
      const d = part(r, 'cocoon_client_increase_stake_data');
      return { query_id: num(d.query_id), new_stake: num(d.new_stake), source, destination, amount };
    }
    case 'cocoon_client_withdraw': {
      const d = part(r, 'cocoon_client_withdraw_data');
      return { query_id: num(d.query_id), withdraw_amount: num(d.withdraw_amount), source, destination, amount };
    }
    default:
      return null;
  }
}

/**
 * EVAA asset ids (`0x…` of the asset's sha256 name) → jetton master, for the liquidation's `asset` (ton-index-go's
 * mainnet table; TON is the native asset: null and known).
 */
const EVAA_TON_ASSET_ID = '0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8a';
const EVAA_ASSETS: ReadonlyMap<string, string> = new Map([
  ['0xb387968236197958ca4ac55e9b5be38e688c7631af84c86756431f49a878ef33', '0:729C13B6DF2C07CBF0A06AB63D34AF454F3D320EC1BCD8FB5C6D24D0806A17C2'],
  ['0x83d916c68510802104d1f75aa6ce30eb1e477aede0d380eee2188e0e56581fc6', '0:7E30FC2B7751BA58A3642F3FD59D5E96A810DDD78D8A310BFE8353BEF10500DF'],
  ['0x495668e908644f30322b997de8faaafc21f05aa52f8982f042dac1fe0b4d09d0', '0:CD872FA7C5816052ACDF5332260443FAEC9AACC8C21CCA4D92E7F47034D11892'],
  ['0x3313e2f57ba870af34480350c789b0987d15b43a53172bfce294de21e7d724e7', '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000'],
  ['0xca9006bd3fb03d355daeeff93b24be90afaa6e3ca0073ff5720f8a852c933278', '0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE'],
  ['0xe025e6a575f174da6d62577c1fe204ccaa5d1e47c55c6b20c67daee56c357b60', '0:3E5FFCA8DDFCF36C36C9FF46F31562AAB51B9914845AD6C26CBDE649D58A5588'],
  ['0x9c77a4d798a8f500dcfb877a07227c4ca9d6782504cdc7ce2ad0051e5641c032', '0:8D636010DD90D8C0902AC7F9F397D8BD5E177F131EE2CCA24CE894F15D19CEEA'],
  ['0x6bfa124cc1343d14ba57ded299f6f514f5f26777099e3c378922ce4081ecbf91', '0:AEA78C710AE94270DC263A870CF47B4360F53CC5ED38E3DB502E9E9AFB904B11'],
  ['0xe08b1f092e7240fb61bf8249d71aa635102acdd50122138105c35dd2896b5331', '0:FE72F474373E97032441BDB873F9A6D3AD10BAB08E6DBC7BEFA5E42B695F5400'],
  ['0x70930360b81e5f4ef2e06d2bf64978b44d4b87fb85d78788e001cdf8812d13d1', '0:AFC49CB8786F21C87045B19EDE78FC6B46C51048513F8E9A6D44060199C1BF0C'],
  ['0x8be3365cabaa6a0f90d2e64f03fa78268c135fe0b0758b576b447e9b2068d75d', '0:2F956143C461769579BAEF2E32CC2D7BC18283F40D20BB03E432CD603AC33FFC'],
  ['0xb372eaca5210612d285f3fdd30e87a0c3a443f1bb7578e16da72563241997ca1', '0:1F1798F724C2296652E6002BFB51BED11FB5A689532E5788AF7203581EF367A8'],
  ['0xb8a51f42ccbb912d973e58a22dda26decc7dfc83718c325c24432045ad78dc5a', '0:E8CB571401B1AADB9DEFC1FA0F72A4A5A0E0D5016903067891D763C91541E72B'],
  ['0xc585bac25948a5feea8f2a9e052eb45995882b15dfb784b37cd271cc163f3aea', '0:5EE20B5240CC4CE51A4C60BAF8C9D358EF617C26463E89C6571B534972C8EEF1'],
  ['0xd9496f9b279a4e26c49eb65d5c47c79b6dfdea16c9baefa9158a7dfbbbcac04a', '0:086FA2A675F74347B08DD4606A549B8FDB98829CB282BC1949D3B12FBAED9DCC'],
  ['0x4a4bae807cc87355de2ead44b21a739d9d35e9bba9a217f5cc9c0108197ad137', '0:D0E545323C7ACB7102653C073377F7E3C67F122EB94D430A250739F109D4A57D'],
]);

function evaaAsset(assetId: string): { asset: string | null; known: boolean } {
  if (assetId === EVAA_TON_ASSET_ID) return { asset: null, known: true };
  const a = EVAA_ASSETS.get(assetId);
  return a === undefined ? { asset: null, known: false } : { asset: a, known: true };
}

/** Options of the Action record: the `accounts` array (`include_accounts`) and the finality (indexed data: finalized). */
export interface ActionWireOptions {
  includeAccounts: boolean;
}

/** The Action record (api-v3.md §3.1 "Action record"), without `transactions_full`. */
export interface ActionWire {
  trace_id: string | null;
  action_id: string;
  start_lt: string;
  end_lt: string;
  start_utime: number;
  end_utime: number;
  trace_end_lt: string;
  trace_end_utime: number;
  trace_mc_seqno_end: number | null;
  transactions: string[];
  success: boolean | null;
  type: string;
  details: Obj;
  trace_external_hash?: string;
  trace_external_hash_norm?: string;
  accounts?: string[];
  finality: 'pending' | 'confirmed' | 'finalized';
  raw_action?: Obj;
}

/** The Action record of a stored row; indexed (stored) actions are `finalized`. */
export function actionWire(row: StoredAction, opts: ActionWireOptions): ActionWire {
  const details = actionDetails(row);
  const type = apiActionType(row);
  const out: ActionWire = {
    trace_id: row.trace_id,
    action_id: row.action_id,
    start_lt: String(row.start_lt),
    end_lt: String(row.end_lt),
    start_utime: row.start_utime,
    end_utime: row.end_utime,
    trace_end_lt: String(row.trace_end_lt),
    trace_end_utime: row.trace_end_utime,
    trace_mc_seqno_end: row.trace_mc_seqno_end,
    transactions: row.tx_hashes,
    success: row.success,
    type,
    details: details ?? { error: `unsupported action type: '${row.type}'` },
    finality: 'finalized',
  };
  // Key order as ton-index-go prints the record.
  const tail: Partial<ActionWire> = {};
  if (row.trace_external_hash !== null) tail.trace_external_hash = row.trace_external_hash;
  if (row.trace_external_hash_norm !== null) tail.trace_external_hash_norm = row.trace_external_hash_norm;
  if (opts.includeAccounts && row.accounts.length > 0) tail.accounts = row.accounts;
  const { finality, ...head } = out;
  return { ...head, ...tail, finality, ...(details === null ? { raw_action: row as unknown as Obj } : {}) };
}

/**
 * The addresses of an action that go into the address book (ton-index-go `CollectAddressesFromAction`): the generic
 * address columns and the address subfields of the composites.
 */
export function actionAddresses(row: StoredAction): string[] {
  const r = row as unknown as Obj;
  const out: unknown[] = [r.source, r.source_secondary, r.destination, r.destination_secondary, r.asset, r.asset_secondary, r.asset2, r.asset2_secondary];
  out.push(part(r, 'jetton_transfer_data').response_destination, part(r, 'nft_transfer_data').response_destination);
  const swap = part(r, 'jetton_swap_data');
  out.push(swap.sender);
  for (const t of [part(swap, 'dex_incoming_transfer'), part(swap, 'dex_outgoing_transfer')]) {
    out.push(t.asset, t.source, t.destination, t.source_jetton_wallet, t.destination_jetton_wallet);
  }
  const dep = part(r, 'dex_deposit_liquidity_data');
  out.push(dep.asset1, dep.asset2, dep.target_asset_1, dep.target_asset_2, dep.nft_address);
  const wd = part(r, 'dex_withdraw_liquidity_data');
  out.push(wd.asset1_out, wd.asset2_out, wd.burned_nft_address);
  const es = part(r, 'evaa_supply_data');
  out.push(es.sender_jetton_wallet, es.recipient_jetton_wallet, es.master_jetton_wallet, es.master);
  const ew = part(r, 'evaa_withdraw_data');
  out.push(ew.recipient_jetton_wallet, ew.master_jetton_wallet, ew.master);
  out.push(part(r, 'jvault_stake_data').stake_wallet);
  const claimed = part(r, 'jvault_claim_data').claimed_jettons;
  if (Array.isArray(claimed)) out.push(...claimed);
  const liq = str(part(r, 'evaa_liquidate_data').asset_id);
  if (liq !== null) out.push(evaaAsset(liq).asset);
  const tonco = part(r, 'tonco_deploy_pool_data');
  out.push(tonco.jetton0_minter, tonco.jetton1_minter);
  const added = part(r, 'vesting_add_whitelist_data').accounts_added;
  if (Array.isArray(added)) out.push(...added);
  // Only raw addresses: evaa_liquidate's lower-case and tgBTC's hex columns are no accounts (actions.md S.2).
  return [...new Set(out.filter((a): a is string => typeof a === 'string' && /^-?\d+:[0-9A-F]{64}$/.test(a)))];
}
