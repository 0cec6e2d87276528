import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tableRow } from '../../actions/stage.js';
import { createClassifier, parseCorpusTrace } from '../../../shared/ton/actions/index.js';
import type { ActionRow } from '../../../shared/ton/actions/row.js';
import type { Store } from '../../../shared/store/store.js';
import type { TraceRow } from '../../../shared/store/tables/traces.js';
import type { TraceTransactionRow } from '../../../shared/store/tables/trace-transactions.js';
import { type ActionCase, evalCondition, getPath, loadCases } from '../../../test/helpers/action-cases.js';
import { fixturesDir } from '../../../test/helpers/fixtures.js';
import { describeGatewaySuites } from '../../../test/helpers/gateway.js';

/*
 * /api/v3/actions and the actions of /api/v3/traces (routes/actions.ts, routes/traces.ts) over the fixture store plus
 * TON Center's recorded mainnet traces (fixtures/action-corpus/traces), classified by the action stage's classifier
 * and stored as the stage stores them (tableRow), with their `traces` and `trace_transactions` rows.
 *
 * Expected values come from TON Center: the values its test cases (action-corpus/test_cases/*.yaml) state for the
 * stored row, carried to the API field ton-index-go prints them in (`index/parse/actions.go`, api-v3.md §3.1
 * "Action details per type": the table FIELDS below), and the rules api-v3.md §3.1-3.2 and actions.md state for
 * ordering, filters, versions and errors.
 */

const corpusDir = path.join(fixturesDir, 'action-corpus');

interface CorpusTrace {
  file: string;
  trace: Record<string, any>;
  transactions: Array<Record<string, any>>;
  rows: ActionRow[];
}

/** Every recorded trace, classified (once per process). */
let corpusCache: CorpusTrace[] | null = null;
function corpus(): CorpusTrace[] {
  if (corpusCache) return corpusCache;
  const dir = path.join(corpusDir, 'traces');
  corpusCache = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((file) => {
          const doc = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
          const { trace, repo } = parseCorpusTrace(doc);
          return { file, trace: doc.trace, transactions: doc.transactions, rows: createClassifier(repo).classify(trace) };
        })
    : [];
  return corpusCache;
}

/** A recorded trace whose actions are left out of the store: a trace nothing classified yet. */
const UNCLASSIFIED = 'Ugmymow0mpGDSuNUKC1YHkd28o7qceVvYtokZ--D-3E=.json';

async function storeCorpus(store: Store): Promise<void> {
  const all = corpus();
  await store.insert(
    'actions',
    all.filter((t) => t.file !== UNCLASSIFIED).flatMap((t) => t.rows.map(tableRow)),
  );
  await store.insert(
    'traces',
    all.map(
      (t): TraceRow => ({
        trace_id: t.trace.trace_id,
        external_hash: t.trace.external_hash ?? null,
        external_hash_norm: null,
        mc_seqno_start: t.trace.mc_seqno_start,
        mc_seqno_end: t.trace.mc_seqno_end,
        start_lt: String(t.trace.start_lt),
        start_utime: t.trace.start_utime,
        end_lt: String(t.trace.end_lt),
        end_utime: t.trace.end_utime,
        state: t.trace.state,
        transactions: t.trace.nodes_,
        messages: t.trace.edges_,
        pending_messages: t.trace.pending_edges_,
        version: t.trace.mc_seqno_end,
      }),
    ),
  );
  await store.insert(
    'trace_transactions',
    all.flatMap((t) =>
      t.transactions.map(
        (x): TraceTransactionRow => ({
          trace_id: t.trace.trace_id,
          tx_hash: x.hash,
          tx_account: x.account,
          tx_lt: String(x.lt),
          tx_now: x.now,
          mc_seqno: x.mc_block_seqno ?? t.trace.mc_seqno_end,
          version: t.trace.mc_seqno_end,
        }),
      ),
    ),
  );
}

// -------------------------------------------------------------------------------------------------------------------
// Storage column (as the test cases name it) → API field, per type: ton-index-go's ParseRawAction (api-v3.md §3.1).
// A test case path beginning with a key here (then `.` or `[`) is read at the API path with the same suffix.
// -------------------------------------------------------------------------------------------------------------------

type Field = string | [string, (expected: unknown) => unknown];

const GENERIC: Record<string, Field> = {
  trace_id: 'trace_id',
  action_id: 'action_id',
  start_lt: 'start_lt',
  end_lt: 'end_lt',
  start_utime: 'start_utime',
  end_utime: 'end_utime',
  success: 'success',
  tx_hashes: 'transactions',
  accounts: 'accounts',
  trace_end_lt: 'trace_end_lt',
  trace_end_utime: 'trace_end_utime',
  trace_mc_seqno_end: 'trace_mc_seqno_end',
};

const composite = (column: string, fields: string[], rename: Record<string, string> = {}): Record<string, Field> =>
  Object.fromEntries(fields.map((f) => [`${column}.${f}`, `details.${rename[f] ?? f}`]));

const opcodeHex = (v: unknown): unknown => `0x${(Number(v) >>> 0).toString(16).padStart(8, '0')}`;
const nftTransfer: Record<string, Field> = {
  asset: 'details.nft_collection',
  asset_secondary: 'details.nft_item',
  source: 'details.old_owner',
  destination: 'details.new_owner',
  ...composite(
    'nft_transfer_data',
    ['nft_item_index', 'is_purchase', 'price', 'query_id', 'custom_payload', 'forward_payload', 'forward_amount', 'response_destination',
      'marketplace_address', 'payout_amount', 'payout_comment', 'payout_comment_encrypted', 'payout_comment_encoded', 'royalty_amount', 'real_prev_owner'],
    { real_prev_owner: 'real_old_owner' },
  ),
};
const swapSides = ['amount', 'asset', 'source', 'destination', 'source_jetton_wallet', 'destination_jetton_wallet'];
const provider: Field = ['details.provider', (v) => (v === 'tonstakers' ? 'liquid_staking' : v)];
const jvaultUnstake: Record<string, Field> = {
  source: 'details.source',
  source_secondary: 'details.stake_wallet',
  destination: 'details.pool',
  amount: 'details.amount',
  asset: 'details.asset',
  asset2: 'details.staking_asset',
  opcode: 'details.exit_code',
};
/** A Cocoon type: its composite's fields, and the generic columns its details name (api-v3.md §3.1, per type). */
const cocoon = (type: string, fields: string[], generic: Array<'source' | 'destination' | 'amount'> = ['source', 'destination', 'amount']): Record<string, Field> => ({
  ...Object.fromEntries(generic.map((g) => [g, `details.${g}`])),
  ...composite(`${type}_data`, fields),
});
const SD = ['source', 'destination'] as Array<'source' | 'destination' | 'amount'>;

const FIELDS: Record<string, Record<string, Field>> = {
  ton_transfer: {
    source: 'details.source',
    destination: 'details.destination',
    value: 'details.value',
    'ton_transfer_data.content': 'details.comment',
    'ton_transfer_data.encrypted': 'details.encrypted',
  },
  call_contract: { source: 'details.source', destination: 'details.destination', value: 'details.value', opcode: ['details.opcode', opcodeHex] },
  jetton_transfer: {
    asset: 'details.asset',
    source: 'details.sender',
    source_secondary: 'details.sender_jetton_wallet',
    destination: 'details.receiver',
    destination_secondary: 'details.receiver_jetton_wallet',
    amount: 'details.amount',
    ...composite('jetton_transfer_data', ['query_id', 'forward_amount', 'response_destination', 'custom_payload', 'forward_payload', 'comment', 'is_encrypted_comment']),
  },
  jetton_mint: {
    asset: 'details.asset',
    destination: 'details.receiver',
    destination_secondary: 'details.receiver_jetton_wallet',
    amount: 'details.amount',
    value: 'details.ton_amount',
  },
  jetton_swap: {
    source: 'details.sender',
    asset: 'details.asset_in',
    asset2: 'details.asset_out',
    'jetton_swap_data.dex': 'details.dex',
    'jetton_swap_data.peer_swaps': 'details.peer_swaps',
    'jetton_swap_data.min_out_amount': 'details.min_out_amount',
    ...Object.fromEntries(swapSides.flatMap((f) => ['dex_incoming_transfer', 'dex_outgoing_transfer'].map((d) => [`jetton_swap_data.${d}.${f}`, `details.${d}.${f}`]))),
  },
  nft_mint: { source: 'details.owner', asset: 'details.nft_collection', asset_secondary: 'details.nft_item', 'nft_mint_data.nft_item_index': 'details.nft_item_index' },
  nft_transfer: nftTransfer,
  nft_purchase: nftTransfer,
  dex_deposit_liquidity: {
    source: 'details.source',
    destination: 'details.pool',
    ...composite(
      'dex_deposit_liquidity_data',
      ['dex', 'amount1', 'amount2', 'asset1', 'asset2', 'user_jetton_wallet_1', 'user_jetton_wallet_2', 'lp_tokens_minted', 'target_asset_1',
        'target_asset_2', 'target_amount_1', 'target_amount_2', 'vault_excesses', 'tick_lower', 'tick_upper', 'nft_index', 'nft_address'],
      { amount1: 'amount_1', amount2: 'amount_2', asset1: 'asset_1', asset2: 'asset_2' },
    ),
  },
  dex_withdraw_liquidity: {
    source: 'details.source',
    destination: 'details.pool',
    ...composite(
      'dex_withdraw_liquidity_data',
      ['dex', 'amount1', 'amount2', 'asset1_out', 'asset2_out', 'user_jetton_wallet_1', 'user_jetton_wallet_2', 'lp_tokens_burnt', 'burned_nft_index',
        'burned_nft_address', 'tick_lower', 'tick_upper'],
      { amount1: 'amount_1', amount2: 'amount_2', asset1_out: 'asset_1', asset2_out: 'asset_2', burned_nft_index: 'burnt_nft_index', burned_nft_address: 'burnt_nft_address' },
    ),
  },
  stake_deposit: {
    source: 'details.stake_holder',
    destination: 'details.pool',
    amount: 'details.amount',
    asset: 'details.asset',
    'staking_data.tokens_minted': 'details.tokens_minted',
    'staking_data.provider': provider,
  },
  stake_withdrawal: {
    source: 'details.stake_holder',
    destination: 'details.pool',
    amount: 'details.amount',
    asset: 'details.asset',
    'staking_data.ts_nft': 'details.payout_nft',
    'staking_data.tokens_burnt': 'details.tokens_burnt',
    'staking_data.provider': provider,
  },
  stake_withdrawal_request: {
    source: 'details.stake_holder',
    destination: 'details.pool',
    asset: 'details.asset',
    'staking_data.ts_nft': 'details.payout_nft',
    'staking_data.provider': provider,
  },
  evaa_supply: {
    source: 'details.source',
    source_secondary: 'details.source_wallet',
    destination: 'details.recipient',
    destination_secondary: 'details.recipient_contract',
    asset: 'details.asset',
    amount: 'details.amount',
    ...composite('evaa_supply_data', ['recipient_jetton_wallet', 'master_jetton_wallet', 'master', 'asset_id', 'is_ton']),
  },
  evaa_withdraw: {
    source: 'details.source',
    destination: 'details.recipient',
    destination_secondary: 'details.owner_contract',
    asset: 'details.asset',
    amount: 'details.amount',
    ...composite('evaa_withdraw_data', ['recipient_jetton_wallet', 'master_jetton_wallet', 'master', 'fail_reason', 'asset_id']),
  },
  jvault_stake: {
    source: 'details.source',
    source_secondary: 'details.source_jetton_wallet',
    destination: 'details.pool',
    asset: 'details.asset',
    amount: 'details.amount',
    ...composite('jvault_stake_data', ['period', 'stake_wallet', 'minted_stake_jettons']),
  },
  jvault_unstake: jvaultUnstake,
  jvault_unstake_request: jvaultUnstake,
  jvault_claim: { source: 'details.source', source_secondary: 'details.stake_wallet', destination: 'details.pool' },
  tonco_deploy_pool: {
    source: 'details.source',
    destination: 'details.router',
    destination_secondary: 'details.pool',
    ...composite(
      'tonco_deploy_pool_data',
      ['jetton0_router_wallet', 'jetton1_router_wallet', 'jetton0_minter', 'jetton1_minter', 'tick_spacing', 'initial_price_x96', 'protocol_fee',
        'lp_fee_base', 'lp_fee_current', 'pool_active'],
      { jetton0_router_wallet: 'router_jetton_wallet_1', jetton1_router_wallet: 'router_jetton_wallet_2', jetton0_minter: 'jetton_minter_1', jetton1_minter: 'jetton_minter_2' },
    ),
  },
  coffee_staking_deposit: {
    source: 'details.source',
    source_secondary: 'details.source_jetton_wallet',
    destination: 'details.pool',
    destination_secondary: 'details.pool_jetton_wallet',
    asset: 'details.asset',
    amount: 'details.amount',
    ...composite('coffee_staking_deposit_data', ['minted_item_address', 'minted_item_index']),
  },
  tgbtc_mint: { source: 'details.source', destination: 'details.destination', amount: 'details.amount', asset: 'details.asset', destination_secondary: 'details.destination_wallet' },
  tgbtc_burn: { source: 'details.source', source_secondary: 'details.source_wallet', destination: 'details.destination', amount: 'details.amount', asset: 'details.asset' },
  vesting_add_whitelist: { source: 'details.source', destination: 'details.vesting', ...composite('vesting_add_whitelist_data', ['query_id', 'accounts_added']) },
  layerzero_send: { source: 'details.initiator', layerzero_send_data: 'details.layerzero_send_data', layerzero_packet_data: 'details.layerzero_packet_data' },
  layerzero_send_tokens: {
    source: 'details.sender',
    source_secondary: 'details.sender_wallet',
    destination: 'details.oapp',
    destination_secondary: 'details.oapp_wallet',
    asset: 'details.asset',
    amount: 'details.amount',
    layerzero_send_data: 'details.layerzero_send_data',
    layerzero_packet_data: 'details.layerzero_packet_data',
  },
  layerzero_receive: { source: 'details.sender', destination: 'details.oapp', destination_secondary: 'details.channel', layerzero_packet_data: 'details.layerzero_packet_data' },
  layerzero_commit_packet: {
    source: 'details.sender',
    source_secondary: 'details.endpoint',
    destination: 'details.uln',
    destination_secondary: 'details.uln_connection',
    asset: 'details.channel',
    asset_secondary: 'details.msglib_connection',
    layerzero_packet_data: 'details.layerzero_packet_data',
  },
  layerzero_dvn_verify: { source: 'details.initiator', ...composite('layerzero_dvn_verify_data', ['nonce', 'status', 'dvn', 'proxy', 'uln', 'uln_connection']) },
  cocoon_worker_payout: cocoon('cocoon_worker_payout', ['payout_type', 'query_id', 'new_tokens', 'worker_state', 'worker_tokens']),
  cocoon_proxy_payout: cocoon('cocoon_proxy_payout', ['query_id'], SD),
  cocoon_proxy_charge: cocoon('cocoon_proxy_charge', ['query_id', 'new_tokens_used', 'expected_address'], SD),
  cocoon_client_top_up: cocoon('cocoon_client_top_up', ['query_id']),
  cocoon_register_proxy: cocoon('cocoon_register_proxy', ['query_id'], ['destination']),
  cocoon_unregister_proxy: cocoon('cocoon_unregister_proxy', ['query_id', 'seqno'], ['destination']),
  cocoon_client_register: cocoon('cocoon_client_register', ['query_id', 'nonce'], SD),
  cocoon_client_change_secret_hash: cocoon('cocoon_client_change_secret_hash', ['query_id', 'new_secret_hash'], SD),
  cocoon_client_request_refund: cocoon('cocoon_client_request_refund', ['query_id', 'via_wallet'], SD),
  cocoon_grant_refund: cocoon('cocoon_grant_refund', ['query_id', 'new_tokens_used', 'expected_address']),
  cocoon_client_increase_stake: cocoon('cocoon_client_increase_stake', ['query_id', 'new_stake']),
  cocoon_client_withdraw: cocoon('cocoon_client_withdraw', ['query_id', 'withdraw_amount']),
};

/** Where the API prints a test case's storage path (and how its value prints), or null when it is not printed. */
function apiField(type: string, storagePath: string): { path: string; map: (v: unknown) => unknown } | null {
  const table = { ...GENERIC, ...(FIELDS[type] ?? {}) };
  let best: string | null = null;
  for (const k of Object.keys(table)) {
    if ((storagePath === k || storagePath.startsWith(`${k}.`) || storagePath.startsWith(`${k}[`)) && (best === null || k.length > best.length)) best = k;
  }
  if (best === null) return null;
  const f = table[best]!;
  const [p, map] = typeof f === 'string' ? [f, (v: unknown) => v] : f;
  return { path: p + storagePath.slice(best.length), map };
}

/** A stored value (as the case states it: ints, bools, strings, lists, dicts) against the API's print of it. */
function apiEquals(api: unknown, exp: unknown): boolean {
  if (exp === null || exp === undefined) return api === null || api === undefined;
  if (typeof exp === 'bigint' || typeof exp === 'number') {
    const e = typeof exp === 'number' ? BigInt(Math.trunc(exp)) : exp;
    if (typeof api === 'string' && /^-?\d+$/.test(api)) return BigInt(api) === e;
    if (typeof api === 'number') return BigInt(api) === e;
    return false;
  }
  if (Array.isArray(exp)) {
    if (!Array.isArray(api) || api.length !== exp.length) return false;
    return exp.every((e) => api.some((a) => apiEquals(a, e)));
  }
  if (typeof exp === 'object') {
    if (api === null || typeof api !== 'object') return false;
    return Object.entries(exp).every(([k, v]) => apiEquals((api as Record<string, unknown>)[k], v));
  }
  return api === exp;
}

/** The action a case describes, picked as TON Center's harness picks it (type, then selector: actions.md S.1). */
function pick(c: ActionCase['expected'][number], rows: ActionRow[]): ActionRow | null {
  let matching = rows.filter((r) => r.type.toLowerCase() === c.type.toLowerCase());
  if (c.selector && matching.length > 0) {
    const hit = matching.find((r) => evalCondition(c.selector!, r));
    matching = hit ? [hit] : [];
  }
  return matching.length === 1 ? matching[0]! : null;
}

const enc = encodeURIComponent;

describeGatewaySuites('actions', (s) => {
  const api = s.api;
  const ok = async (url: string, headers?: Record<string, string>) => {
    const r = await api(url, headers);
    expect(r.status, `${url}: ${JSON.stringify(r.body).slice(0, 400)}`).toBe(200);
    return r.body;
  };

  beforeAll(async () => {
    await storeCorpus(s.fx.store);
  });

  // Traces with an action `latest` shows: a top-level one of a type in a version (tgBTC's are in none, actions.md).
  const visibleCount = () =>
    corpus().filter((t) => t.file !== UNCLASSIFIED && t.rows.some((r) => r.parent_action_id === null && !r.type.startsWith('tgbtc_'))).length;

  // -----------------------------------------------------------------------------------------------------------
  describe('details: TON Center test case values at the fields ton-index-go prints them in', () => {
    it('every case of a type the API prints: values, type, envelope', async () => {
      let compared = 0;
      let cases = 0;
      const failures: string[] = [];
      const files = existsSync(path.join(corpusDir, 'test_cases')) ? readdirSync(path.join(corpusDir, 'test_cases')).filter((f) => f.endsWith('.yaml')) : [];
      for (const file of files.sort()) {
        for (const c of loadCases(path.join(corpusDir, 'test_cases', file))) {
          const t = corpus().find((x) => x.trace.trace_id === c.traceId.replace(/-/g, '+').replace(/_/g, '/'));
          if (!t || t.file === UNCLASSIFIED) continue;
          for (const exp of c.expected) {
            if (!FIELDS[exp.type]) continue;
            const row = pick(exp, t.rows);
            if (!row) {
              failures.push(`${file}: ${c.name}: no single ${exp.type}`);
              continue;
            }
            // The case's own type as the supported set (v1 always added): a child of a newer parent is shown too.
            const body = await ok(`/api/v3/actions?action_id=${enc(row.action_id)}&include_accounts=true&supported_action_types=${exp.type}`);
            expect(body.actions, `${file}: ${c.name}`).toHaveLength(1);
            const a = body.actions[0];
            cases++;
            if (a.type !== exp.type && !(a.type === 'extra_currency_transfer' && ['ton_transfer', 'call_contract'].includes(exp.type))) {
              failures.push(`${file}: ${c.name}: type ${a.type}`);
            }
            expect(a.finality).toBe('finalized');
            for (const [p, v] of Object.entries(exp.values ?? {})) {
              if (typeof v === 'string' && v.startsWith('{{')) continue;
              const f = apiField(exp.type, p);
              if (!f) continue;
              compared++;
              const got = getPath(a, f.path);
              if (!apiEquals(got, f.map(v))) failures.push(`${file}: ${c.name}: ${p} → ${f.path}: expected ${String(v)}, got ${JSON.stringify(got)}`);
            }
          }
        }
      }
      expect(failures).toEqual([]);
      // Not vacuous: most cases and their values went through the API.
      expect(cases).toBeGreaterThan(80);
      expect(compared).toBeGreaterThan(350);
    });

    it('64-bit values are strings, hashes base64, optional hashes omitted when null', async () => {
      const body = await ok('/api/v3/actions?limit=1000&supported_action_types=latest&supported_action_types=tgbtc');
      expect(body.actions.length).toBeGreaterThan(50);
      for (const a of body.actions) {
        for (const k of ['start_lt', 'end_lt', 'trace_end_lt']) expect(a[k]).toMatch(/^\d+$/);
        for (const k of ['start_utime', 'end_utime', 'trace_end_utime']) expect(typeof a[k]).toBe('number');
        for (const h of [a.trace_id, a.action_id, ...a.transactions]) expect(h).toMatch(/^[A-Za-z0-9+/]{43}=$/);
        if ('trace_external_hash' in a) expect(a.trace_external_hash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
        expect('accounts' in a).toBe(false);
        expect('transactions_full' in a).toBe(false);
      }
    });
  });

  // -----------------------------------------------------------------------------------------------------------
  describe('versions (supported_action_types, X-Actions-Version)', () => {
    // nft.yaml's purchase: TON Center stores the purchase and, under it, the item's transfer (actions.md S.3).
    const purchase = () => {
      for (const t of corpus()) {
        const p = t.rows.find((r) => r.type === 'nft_purchase');
        if (p) return { t, p };
      }
      throw new Error('no nft_purchase in the corpus');
    };

    it('latest: the purchase, not the transfer it replaced; v1: the transfer, not the purchase', async () => {
      const { t, p } = purchase();
      const latest = await ok(`/api/v3/actions?trace_id=${enc(t.trace.trace_id)}`);
      const types = latest.actions.map((a: { type: string }) => a.type);
      expect(types).toContain('nft_purchase');
      const item = latest.actions.find((a: { type: string }) => a.type === 'nft_purchase').details.nft_item;
      expect(item).toBe(p.asset_secondary);
      expect(latest.actions.filter((a: any) => a.type === 'nft_transfer' && a.details.nft_item === item)).toEqual([]);
      const v1 = await ok(`/api/v3/actions?trace_id=${enc(t.trace.trace_id)}&supported_action_types=v1`);
      expect(v1.actions.map((a: { type: string }) => a.type)).not.toContain('nft_purchase');
      expect(v1.actions.filter((a: any) => a.type === 'nft_transfer' && a.details.nft_item === item)).toHaveLength(1);
      // The header replaces the parameter.
      const header = await ok(`/api/v3/actions?trace_id=${enc(t.trace.trace_id)}&supported_action_types=latest`, { 'x-actions-version': 'v1' });
      expect(header.actions).toEqual(v1.actions);
      // /traces applies the same rule.
      const tr = await ok(`/api/v3/traces?trace_id=${enc(t.trace.trace_id)}&include_actions=true&supported_action_types=v1`);
      expect(new Set(tr.traces[0].actions.map((a: { action_id: string }) => a.action_id))).toEqual(new Set(v1.actions.map((a: { action_id: string }) => a.action_id)));
    });

    it('tgBTC types are in no version (latest = v4): shown only when named', async () => {
      const t = corpus().find((x) => x.rows.some((r) => r.type.startsWith('tgbtc_')))!;
      const latest = await ok(`/api/v3/actions?trace_id=${enc(t.trace.trace_id)}`);
      expect(latest.actions.filter((a: { type: string }) => a.type.startsWith('tgbtc_'))).toEqual([]);
      const named = await ok(`/api/v3/actions?trace_id=${enc(t.trace.trace_id)}&supported_action_types=tgbtc`);
      expect(named.actions.filter((a: { type: string }) => a.type.startsWith('tgbtc_')).length).toBeGreaterThan(0);
    });
  });

  // -----------------------------------------------------------------------------------------------------------
  describe('filters, order and pages', () => {
    const key = (a: any): [bigint, string, bigint, string] => [BigInt(a.trace_end_lt), a.trace_id, BigInt(a.end_lt), a.action_id];
    const cmpKey = (x: any, y: any): number => {
      const a = key(x);
      const b = key(y);
      for (let i = 0; i < 4; i++) if (a[i]! !== b[i]!) return a[i]! < b[i]! ? -1 : 1;
      return 0;
    };

    it('no filter: TON Center\'s order (trace_end_lt, trace_id, end_lt, action_id), desc by default, asc reversed', async () => {
      const desc = (await ok('/api/v3/actions?limit=1000')).actions;
      expect(desc.length).toBeGreaterThan(50);
      for (let i = 1; i < desc.length; i++) expect(cmpKey(desc[i - 1], desc[i])).toBeGreaterThan(0);
      const asc = (await ok('/api/v3/actions?limit=1000&sort=asc')).actions;
      expect(asc).toEqual([...desc].reverse());
      // Every classified trace is listed; the one left unclassified is not.
      expect(new Set(desc.map((a: { trace_id: string }) => a.trace_id)).size).toBe(visibleCount());
    });

    it('limit and offset page the same listing; limit 0 is 1; default 10', async () => {
      const all = (await ok('/api/v3/actions?limit=1000')).actions;
      const pages: unknown[] = [];
      for (let off = 0; off < all.length; off += 7) pages.push(...(await ok(`/api/v3/actions?limit=7&offset=${off}`)).actions);
      expect(pages).toEqual(all);
      expect((await ok('/api/v3/actions?limit=0')).actions).toEqual(all.slice(0, 1));
      expect((await ok('/api/v3/actions')).actions).toEqual(all.slice(0, 10));
    });

    it('start_lt / end_lt bound trace_end_lt; a utime window orders by trace_end_utime', async () => {
      const all = (await ok('/api/v3/actions?limit=1000')).actions;
      const lts = [...new Set(all.map((a: { trace_end_lt: string }) => a.trace_end_lt))].sort((a: any, b: any) => (BigInt(a) < BigInt(b) ? -1 : 1)) as string[];
      const lo = lts[Math.floor(lts.length / 4)]!;
      const hi = lts[Math.floor((3 * lts.length) / 4)]!;
      const win = (await ok(`/api/v3/actions?limit=1000&start_lt=${lo}&end_lt=${hi}`)).actions;
      expect(win).toEqual(all.filter((a: any) => BigInt(a.trace_end_lt) >= BigInt(lo) && BigInt(a.trace_end_lt) <= BigInt(hi)));
      const byUtime = (await ok('/api/v3/actions?limit=1000&start_utime=1&sort=asc')).actions;
      expect(byUtime).toHaveLength(all.length);
      for (let i = 1; i < byUtime.length; i++) expect(byUtime[i - 1].trace_end_utime).toBeLessThanOrEqual(byUtime[i].trace_end_utime);
    });

    it('account: the actions it takes part in (TON Center\'s accounts of the jetton transfer case)', async () => {
      const [c] = loadCases(path.join(corpusDir, 'test_cases', 'jetton-transfer.yaml'));
      const exp = c!.expected[0]!;
      const accounts = exp.values!.accounts as string[];
      for (const account of accounts) {
        const body = await ok(`/api/v3/actions?account=${enc(account)}&include_accounts=true&limit=1000`);
        expect(body.actions.some((a: any) => a.type === 'jetton_transfer' && a.trace_id === c!.traceId.replace(/-/g, '+').replace(/_/g, '/'))).toBe(true);
        for (const a of body.actions) expect(a.accounts).toContain(account);
        for (let i = 1; i < body.actions.length; i++) expect(cmpKey(body.actions[i - 1], body.actions[i])).toBeGreaterThan(0);
      }
      // Any address form; a malformed one is refused.
      expect((await api('/api/v3/actions?account=not-an-address')).status).toBe(422);
    });

    it('tx_hash, trace_id, action_id select their actions', async () => {
      // A classified trace with several actions.
      const t = corpus().find((x) => x.file !== UNCLASSIFIED && x.rows.length >= 3)!;
      const traceId = t.trace.trace_id as string;
      const byTrace = (await ok(`/api/v3/actions?trace_id=${enc(traceId)}&limit=1000`)).actions;
      expect(byTrace.length).toBeGreaterThan(0);
      for (const a of byTrace) expect(a.trace_id).toBe(traceId);
      // trace_id in hex and base64url too (api-v3.md §0.3).
      const hex = Buffer.from(traceId, 'base64').toString('hex');
      expect((await ok(`/api/v3/actions?trace_id=${hex}&limit=1000`)).actions).toEqual(byTrace);
      const tx = byTrace[0].transactions[0] as string;
      const byTx = (await ok(`/api/v3/actions?tx_hash=${enc(tx)}&limit=1000`)).actions;
      expect(byTx.length).toBeGreaterThan(0);
      for (const a of byTx) expect(a.transactions).toContain(tx);
      const one = (await ok(`/api/v3/actions?action_id=${enc(byTrace[0].action_id)}`)).actions;
      expect(one).toEqual([byTrace[0]]);
    });

    it('action_type / exclude_action_type', async () => {
      const all = (await ok('/api/v3/actions?limit=1000')).actions;
      const swaps = (await ok('/api/v3/actions?limit=1000&action_type=jetton_swap')).actions;
      expect(swaps.length).toBeGreaterThan(5);
      for (const a of swaps) expect(a.type).toBe('jetton_swap');
      expect(swaps).toEqual(all.filter((a: { type: string }) => a.type === 'jetton_swap'));
      const rest = (await ok('/api/v3/actions?limit=1000&exclude_action_type=jetton_swap')).actions;
      expect(rest).toEqual(all.filter((a: { type: string }) => a.type !== 'jetton_swap'));
    });

    it('mc_seqno: the actions of traces that ended in the block, with account / tx_hash applied too; 404 for a block not indexed', async () => {
      const t = corpus().find((x) => x.file !== UNCLASSIFIED && x.rows.length > 0)!;
      const mc = t.trace.mc_seqno_end as number;
      const template = s.fx.blocks.find((b) => b.decoded.block.workchain === -1)!.rows.blocks[0]!;
      await s.fx.store.insert('blocks', [{ ...template, seqno: mc, mc_block_seqno: mc }]);
      const body = await ok(`/api/v3/actions?mc_seqno=${mc}&limit=1000`);
      expect(body.actions.length).toBeGreaterThan(0);
      for (const a of body.actions) expect(a.trace_mc_seqno_end).toBe(mc);
      expect(new Set(body.actions.map((a: { trace_id: string }) => a.trace_id))).toContain(t.trace.trace_id);
      // With an account or a transaction too: the block's actions that hold it, not all of them (a block whose actions
      // differ in both).
      let checked = 0;
      for (const c of corpus().filter((x) => x.file !== UNCLASSIFIED && x.rows.length >= 3)) {
        const m = c.trace.mc_seqno_end as number;
        await s.fx.store.insert('blocks', [{ ...template, seqno: m, mc_block_seqno: m }]);
        const all = (await ok(`/api/v3/actions?mc_seqno=${m}&limit=1000&include_accounts=true`)).actions as Array<{ accounts: string[]; transactions: string[] }>;
        const account = all.flatMap((x) => x.accounts).find((x) => all.some((y) => !y.accounts.includes(x)));
        const tx = all.flatMap((x) => x.transactions).find((h) => all.some((y) => !y.transactions.includes(h)));
        if (account === undefined || tx === undefined) continue;
        const byAccount = (await ok(`/api/v3/actions?mc_seqno=${m}&limit=1000&include_accounts=true&account=${enc(account)}`)).actions;
        expect(byAccount).toEqual(all.filter((x) => x.accounts.includes(account)));
        const byTx = (await ok(`/api/v3/actions?mc_seqno=${m}&limit=1000&include_accounts=true&tx_hash=${enc(tx)}`)).actions;
        expect(byTx).toEqual(all.filter((x) => x.transactions.includes(tx)));
        if (++checked === 3) break;
      }
      expect(checked).toBeGreaterThan(0);
      const r = await api('/api/v3/actions?mc_seqno=4000000000');
      expect(r.status).toBe(422);
      const missing = await api('/api/v3/actions?mc_seqno=2000000000');
      expect(missing).toMatchObject({ status: 404, body: { error: 'masterchain block 2000000000 not found' } });
    });

    it('msg_hash of no stored message: no actions', async () => {
      const body = await ok(`/api/v3/actions?msg_hash=${'ab'.repeat(32)}`);
      expect(body).toEqual({ actions: [], address_book: {}, metadata: {} });
    });
  });

  // -----------------------------------------------------------------------------------------------------------
  describe('address_book, errors', () => {
    it('address_book holds the addresses of the actions\' details, keyed raw; X-No-Address-Book empties it', async () => {
      const [c] = loadCases(path.join(corpusDir, 'test_cases', 'jetton-transfer.yaml'));
      const v = c!.expected[0]!.values!;
      const traceId = c!.traceId.replace(/-/g, '+').replace(/_/g, '/');
      const body = await ok(`/api/v3/actions?trace_id=${enc(traceId)}`);
      for (const a of [v.source, v.source_secondary, v.destination, v.asset] as string[]) {
        expect(body.address_book[a], a).toMatchObject({ user_friendly: expect.stringMatching(/^[EU]Q[A-Za-z0-9_-]{46}$/), interfaces: expect.any(Array) });
      }
      expect(body.metadata).toEqual({});
      const none = await ok(`/api/v3/actions?trace_id=${enc(traceId)}`, { 'x-no-address-book': 'true' });
      expect(none.address_book).toEqual({});
      expect(none.actions).toEqual(body.actions);
    });

    it('bad parameters: TON Center\'s status and {"error"} body', async () => {
      const cases: Array<[string, number, string | RegExp]> = [
        ['action_type=jetton%20swap', 422, 'action_type contains invalid characters'],
        ['exclude_action_type=a;b', 422, 'exclude_action_type contains invalid characters'],
        ['limit=1001', 422, 'limit is not allowed: 1001 > 1000'],
        ['tx_hash=xyz', 422, /tx_hash/],
        ['trace_id=abc', 422, /trace_id/],
        ['action_id=zz', 422, /action_id/],
        ['start_lt=-1', 422, /start_lt/],
        ['include_accounts=maybe', 422, /include_accounts/],
        ['sort=sideways', 500, 'wrong value for sort parameter'],
      ];
      for (const [q, status, message] of cases) {
        const r = await api(`/api/v3/actions?${q}`);
        expect({ q, status: r.status }).toEqual({ q, status });
        expect(Object.keys(r.body)).toEqual(['error']);
        if (typeof message === 'string') expect(r.body.error).toBe(message);
        else expect(r.body.error).toMatch(message);
      }
    });
  });

  // -----------------------------------------------------------------------------------------------------------
  describe('/api/v3/traces and /api/v3/events carry the actions', () => {
    it('include_actions: the trace\'s actions (start_lt order); without it no actions key', async () => {
      const t = corpus().find((x) => x.file !== UNCLASSIFIED && x.rows.length >= 3)!;
      const id = enc(t.trace.trace_id);
      const withActions = await ok(`/api/v3/traces?trace_id=${id}&include_actions=true`);
      const tr = withActions.traces[0];
      const listed = (await ok(`/api/v3/actions?trace_id=${id}&limit=1000`)).actions;
      expect(new Set(tr.actions.map((a: { action_id: string }) => a.action_id))).toEqual(new Set(listed.map((a: { action_id: string }) => a.action_id)));
      for (let i = 1; i < tr.actions.length; i++) expect(BigInt(tr.actions[i - 1].start_lt) <= BigInt(tr.actions[i].start_lt)).toBe(true);
      for (const a of tr.actions) expect('accounts' in a).toBe(false);
      // The actions' addresses are in the book.
      for (const a of tr.actions) if (a.details.source) expect(withActions.address_book[a.details.source]).toBeDefined();
      const without = await ok(`/api/v3/traces?trace_id=${id}`);
      expect('actions' in without.traces[0]).toBe(false);
      const events = await ok(`/api/v3/events?trace_id=${id}`);
      expect(events.events[0].actions).toEqual(tr.actions);
    });

    it('classification_state is unclassified for every stored trace, with actions or without, as TON Center answers', async () => {
      // TON Center's recorded /api/v3/traces answer (testnet, fixtures/api-responses): traces of contract calls, which
      // its classifier turns into actions, each `unclassified` (its classifier no longer sets the column).
      const text = readFileSync(path.join(fixturesDir, 'api-responses/toncenter_v3_testnet_traces_axelar.json'), 'utf8');
      const recorded = (JSON.parse(text.replace(/[\u0000-\u001f]/g, ' ')) as { traces: Array<{ trace_info: { classification_state: string } }> }).traces;
      expect(recorded.length).toBeGreaterThan(20);
      const states = new Set(recorded.map((t) => t.trace_info.classification_state));
      expect(states).toEqual(new Set(['unclassified']));
      const classified = corpus().find((x) => x.file !== UNCLASSIFIED && x.rows.length >= 3)!;
      const unclassified = corpus().find((x) => x.file === UNCLASSIFIED)!;
      for (const t of [classified, unclassified]) {
        for (const q of ['', '&include_actions=true']) {
          const body = await ok(`/api/v3/traces?trace_id=${enc(t.trace.trace_id)}${q}`);
          expect(body.traces[0].trace_info.classification_state, `${t.file}${q}`).toBe('unclassified');
        }
      }
      expect((await ok(`/api/v3/traces?trace_id=${enc(classified.trace.trace_id)}&include_actions=true`)).traces[0].actions.length).toBeGreaterThan(0);
      expect((await ok(`/api/v3/events?trace_id=${enc(classified.trace.trace_id)}`)).events[0].trace_info.classification_state).toBe('unclassified');
      // A trace without stored actions: an empty list.
      expect((await ok(`/api/v3/traces?trace_id=${enc(unclassified.trace.trace_id)}&include_actions=true`)).traces[0].actions).toEqual([]);
    });

    it('listing without an id filter: end_lt then trace_id, newest row of each trace, pages of one listing', async () => {
      const all = (await ok('/api/v3/traces?limit=1000')).traces;
      expect(all.length).toBe(corpus().length);
      const k = (t: any): [bigint, string] => [BigInt(t.end_lt), t.trace_id];
      for (let i = 1; i < all.length; i++) {
        const [a, b] = [k(all[i - 1]), k(all[i])];
        expect(a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])).toBe(true);
      }
      const pages: unknown[] = [];
      for (let off = 0; off < all.length; off += 9) pages.push(...(await ok(`/api/v3/traces?limit=9&offset=${off}`)).traces);
      expect(pages).toEqual(all);
      const asc = (await ok('/api/v3/traces?limit=1000&sort=asc')).traces;
      expect(asc).toEqual([...all].reverse());
      // An older row of a trace (a pending state the trace stage wrote at an earlier masterchain block): the trace is
      // listed once, where its newest row sorts.
      const newest = all[Math.floor(all.length / 2)];
      await s.fx.store.insert('traces', [
        {
          trace_id: newest.trace_id, external_hash: newest.external_hash, external_hash_norm: null,
          mc_seqno_start: Number(newest.mc_seqno_start), mc_seqno_end: Number(newest.mc_seqno_start), start_lt: newest.start_lt,
          start_utime: newest.start_utime, end_lt: '1', end_utime: newest.start_utime, state: 'pending', transactions: 1, messages: 1,
          pending_messages: 1, version: Number(newest.mc_seqno_start) - 1,
        } satisfies TraceRow,
      ]);
      const again = (await ok('/api/v3/traces?limit=1000&sort=asc')).traces;
      expect(again.map((t: { trace_id: string }) => t.trace_id)).toEqual(asc.map((t: { trace_id: string }) => t.trace_id));
      const win = (await ok(`/api/v3/traces?limit=1000&end_lt=${BigInt(all.at(-1).end_lt) - 1n}`)).traces;
      expect(win).toEqual([]);
    });
  });
});
