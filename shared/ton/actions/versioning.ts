import type { ActionRow } from './row.js';

/**
 * `supported_action_types` (TON Center API v3 /actions, /traces): a client names the action types it understands,
 * directly or by shortcut (actions.md "Version shortcuts"; ton-index-go `ActionTypeShortcuts`). The server shows
 * an action only if its type is supported, and hides a child action when one of its ancestors' types is supported
 * (the client then sees the parent instead), so an older client still sees the v1 children of a newer parent.
 */
const V1 = [
  'call_contract', 'contract_deploy', 'ton_transfer', 'stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request',
  'dex_deposit_liquidity', 'jetton_transfer', 'nft_transfer', 'nft_mint', 'jetton_burn', 'jetton_mint', 'jetton_swap',
  'change_dns', 'delete_dns', 'renew_dns', 'subscribe', 'dex_withdraw_liquidity', 'unsubscribe', 'election_deposit',
  'election_recover', 'auction_bid', 'tick_tock',
];
const COFFEE = [
  'coffee_create_vault', 'coffee_create_pool_creator', 'coffee_create_pool', 'coffee_mev_protect_hold_funds',
  'coffee_staking_claim_rewards', 'coffee_staking_deposit', 'coffee_staking_withdraw',
];
const NFT_V3 = [
  'nft_put_on_sale', 'nft_put_on_auction', 'auction_outbid', 'nft_cancel_sale', 'nft_purchase', 'nft_cancel_auction',
  'nft_finish_auction', 'teleitem_start_auction', 'teleitem_cancel_auction', 'nft_update_sale', 'dns_purchase', 'dns_release',
];
const LAYERZERO = ['layerzero_send', 'layerzero_send_tokens', 'layerzero_receive', 'layerzero_commit_packet', 'layerzero_dvn_verify'];
const COCOON = [
  'cocoon_worker_payout', 'cocoon_proxy_payout', 'cocoon_proxy_charge', 'cocoon_client_top_up', 'cocoon_register_proxy',
  'cocoon_unregister_proxy', 'cocoon_client_register', 'cocoon_client_change_secret_hash', 'cocoon_client_request_refund',
  'cocoon_grant_refund', 'cocoon_client_increase_stake', 'cocoon_client_withdraw',
];

/** Shortcut → members (types or other shortcuts), as ton-index-go defines them. */
export const ACTION_TYPE_SHORTCUTS: ReadonlyMap<string, readonly string[]> = new Map<string, string[]>([
  ['v1', V1],
  [
    'v2',
    [
      ...V1,
      'multisig_create_order', 'multisig_approve', 'multisig_execute', 'vesting_send_message', 'vesting_add_whitelist',
      'evaa_supply', 'evaa_withdraw', 'evaa_liquidate', 'jvault_stake', 'jvault_unstake', 'jvault_claim',
      'jvault_unstake_request', 'nft_discovery', 'tonco_deploy_pool', ...COFFEE.slice(0, 4), 'coffee_mev_protect_failed_swap',
      ...COFFEE.slice(4), 'unknown',
    ],
  ],
  ['v3', ['v2', ...NFT_V3.slice(0, 10), 'dns_purchase', 'dns_release', ...LAYERZERO]],
  ['v4', ['v3', ...COCOON]],
  ['latest', ['v4']],
  ['staking', ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request']],
  ['jettons', ['jetton_transfer', 'jetton_burn', 'jetton_mint']],
  ['nft', ['nft_transfer', 'nft_mint', 'auction_bid']],
  ['nft.v3', ['nft', ...NFT_V3]],
  ['dns', ['change_dns', 'delete_dns', 'renew_dns', 'dns_purchase', 'dns_release']],
  ['dns.v2', ['dns', 'dns_purchase', 'dns_release']],
  ['multisig', ['multisig_create_order', 'multisig_approve', 'multisig_execute']],
  ['vesting', ['vesting_send_message', 'vesting_add_whitelist']],
  ['evaa', ['evaa_supply', 'evaa_withdraw', 'evaa_liquidate']],
  ['jvault', ['jvault_stake', 'jvault_unstake', 'jvault_claim', 'jvault_unstake_request']],
  ['coffee', COFFEE],
  ['tgbtc', ['tgbtc_dkg_log_fallback', 'tgbtc_new_key', 'tgbtc_new_key_fallback', 'tgbtc_burn', 'tgbtc_burn_fallback', 'tgbtc_mint', 'tgbtc_mint_fallback']],
  ['layerzero', LAYERZERO],
  ['cocoon', COCOON],
]);

/** The action types a client's `supported_action_types` stands for; v1 is always included. Unknown names pass as types. */
export function expandActionTypes(requested: readonly string[]): Set<string> {
  const out = new Set<string>();
  const visit = (name: string, depth: number): void => {
    if (depth > 10) return;
    const members = ACTION_TYPE_SHORTCUTS.get(name);
    if (members === undefined) {
      out.add(name);
      return;
    }
    for (const m of members) visit(m, depth + 1);
  };
  for (const r of requested) visit(r, 0);
  visit('v1', 0);
  return out;
}

/**
 * The rows a client with these supported types is shown: its types only, and no child whose ancestors include a
 * supported type (ancestor types are internal block types, as TON Center stores them).
 */
export function actionsForClient<R extends Pick<ActionRow, 'type' | 'ancestor_type'>>(rows: readonly R[], supported: ReadonlySet<string>): R[] {
  return rows.filter((r) => supported.has(r.type) && !(r.ancestor_type ?? []).some((a) => supported.has(a)));
}
