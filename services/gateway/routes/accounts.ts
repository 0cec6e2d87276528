import { z } from 'zod';
import { isAddress, parseAddress } from '../../../shared/ton/address.js';
import { ApiError } from '../errors.js';
import { accountStateFull, codeHashesOf, latestStates, topAccountsByBalance, walletState } from '../repo/accounts.js';
import { bookEntry, codeHashes } from '../repo/address-book.js';
import { parseWalletData, walletKind } from '../../../shared/ton/interfaces/wallets.js';
import {
  AccountBalance,
  AccountStatesResponse,
  AddressBook,
  IndexError,
  V2AddressInformation,
  V2WalletInformation,
  WalletStatesResponse,
} from '../schemas/records.js';
import { AccountStatesQuery, AddressBookQuery, AddressInformationQuery, MAX_STATES, TopAccountsQuery, WalletStatesQuery } from '../schemas/v3.js';
import { type App, type RouteDeps, book, emptyMetadata, zod } from './context.js';
import { v2AddressInformation, v2WalletInformation } from './v2-read.js';

const ZERO_HASH = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
/** The statuses each endpoint answers with (api-v3.md §2), so that the document lists no others. */
const errors = { 422: IndexError, 500: IndexError };
const v2CompatErrors = { 401: IndexError, ...errors };

/** api-v3.md §2.1–2.3, §2.5, §8.1–8.2. */
export function accountRoutes(app: App, deps: RouteDeps): void {
  const r = zod(app);

  r.get(
    '/api/v3/accountStates',
    {
      // TON Center reports any store failure of this endpoint as 422 (api-v3.md §2.1).
      config: { storeErrorStatus: 422 },
      schema: {
        tags: ['Accounts'],
        operationId: 'api_v3_get_account_states',
        summary: 'Get account states',
        description: 'The latest state of each account; unknown accounts are absent.',
        querystring: AccountStatesQuery,
        response: { 200: AccountStatesResponse, ...errors },
      },
    },
    async (req) => {
      const q = req.query;
      const states = await latestStates(deps.db, req.tf, q.address ?? []);
      const accounts = [...states.values()].slice(0, MAX_STATES).map((s) => accountStateFull(s, q.include_boc));
      return { accounts, address_book: await book(deps, req, accounts.map((a) => a.address), codeHashesOf(states)), metadata: emptyMetadata() };
    },
  );

  r.get(
    '/api/v3/walletStates',
    {
      // As accountStates (api-v3.md §2.2 "same validation"): store failures are 422.
      config: { storeErrorStatus: 422 },
      schema: {
        tags: ['Accounts'],
        operationId: 'api_v3_get_wallet_states',
        summary: 'Get wallet states',
        description:
          'Wallet information of each account: wallet type by code hash (v1r1 … v5r1), seqno / wallet_id / is_signature_allowed from the data cell when the store has it.',
        querystring: WalletStatesQuery,
        response: { 200: WalletStatesResponse, ...errors },
      },
    },
    async (req) => {
      const states = await latestStates(deps.db, req.tf, req.query.address ?? []);
      const wallets = [...states.values()].slice(0, MAX_STATES).map(walletState);
      return { wallets, address_book: await book(deps, req, wallets.map((w) => w.address), codeHashesOf(states)), metadata: emptyMetadata() };
    },
  );

  r.get(
    '/api/v3/addressBook',
    {
      schema: {
        tags: ['Accounts'],
        operationId: 'api_v3_get_address_book',
        summary: 'Address book',
        description: "User-friendly forms and interfaces of addresses, keyed by the caller's own strings.",
        querystring: AddressBookQuery,
        response: { 200: AddressBook, ...errors },
      },
    },
    async (req) => {
      const inputs = req.query.address ?? [];
      const raw = new Map<string, string>();
      for (const s of inputs) if (isAddress(s)) raw.set(s, parseAddress(s));
      const hashes = await codeHashes(deps.db, req.tf, raw.values());
      const out: Record<string, { user_friendly: string | null; domain: string | null; interfaces: string[] }> = {};
      for (const s of inputs) {
        const a = raw.get(s);
        out[s] = a === undefined ? { user_friendly: null, domain: null, interfaces: [] } : bookEntry(a, hashes.get(a) ?? null, deps.db.testnet);
      }
      return out;
    },
  );

  r.get(
    '/api/v3/topAccountsByBalance',
    {
      schema: {
        tags: ['Stats'],
        operationId: 'api_v3_get_top_accounts_by_balance',
        summary: 'Get top accounts by balance',
        description: 'Accounts sorted by balance, richest first.',
        querystring: TopAccountsQuery,
        response: { 200: z.array(AccountBalance), ...errors },
      },
    },
    async (req) => topAccountsByBalance(deps.db, req.tf, { limit: req.query.limit, offset: req.query.offset }),
  );

  for (const url of ['/api/v3/addressInformation', '/api/v3/account']) {
    r.get(
      url,
      {
        schema: {
          tags: ['API v2'],
          summary: 'Get address information',
          description: 'Smart contract information of an account from the index (the v2 `getAddressInformation` in v3 form).',
          querystring: AddressInformationQuery,
          response: { 200: V2AddressInformation, ...v2CompatErrors },
          // The published spec's operation ids; the short alias stays out of the document.
          ...(url === '/api/v3/account' ? { hide: true } : { operationId: 'api_v3_get_v2_addressInformation' }),
        },
      },
      async (req) => {
        if (req.query.use_v2 === true) return v2AddressInformation(deps, req, req.query.address);
        const s = (await latestStates(deps.db, req.tf, [req.query.address])).get(req.query.address);
        if (!s) {
          return { balance: '0', code: null, data: null, last_transaction_lt: '0', last_transaction_hash: ZERO_HASH, frozen_hash: null, status: 'uninit' };
        }
        return {
          balance: String(s.balance),
          code: (s.code_boc) ?? null,
          data: (s.data_boc) ?? null,
          last_transaction_lt: String(s.last_trans_lt),
          last_transaction_hash: String(s.last_trans_hash),
          // Always null on TON Center's index path (api-v3.md §8.1).
          frozen_hash: null,
          status: String(s.status),
        };
      },
    );
  }

  for (const url of ['/api/v3/walletInformation', '/api/v3/wallet']) {
    r.get(
      url,
      {
        schema: {
          tags: ['API v2'],
          summary: 'Get wallet information',
          description:
            'Wallet information (v1r1 … v5r1) of an account from the index. Accounts that are not wallets answer 409 unless they are uninit.',
          querystring: AddressInformationQuery,
          response: { 200: V2WalletInformation, 409: IndexError, ...v2CompatErrors },
          ...(url === '/api/v3/wallet' ? { hide: true } : { operationId: 'api_v3_get_wallet_information' }),
        },
      },
      async (req) => {
        if (req.query.use_v2 === true) return v2WalletInformation(deps, req, req.query.address);
        const s = (await latestStates(deps.db, req.tf, [req.query.address])).get(req.query.address);
        if (!s) return { balance: '0', last_transaction_lt: '0', last_transaction_hash: ZERO_HASH, status: 'uninit' };
        const kind = walletKind(s.code_hash);
        const status = String(s.status);
        if (!kind && status !== 'uninit') throw new ApiError(409, 'not a wallet');
        const data = kind ? parseWalletData(kind, s.data_boc) : {};
        return {
          balance: String(s.balance),
          ...(kind ? { wallet_type: kind.type } : {}),
          ...(data.seqno !== undefined ? { seqno: data.seqno } : {}),
          ...(data.wallet_id !== undefined ? { wallet_id: data.wallet_id } : {}),
          last_transaction_lt: String(s.last_trans_lt),
          last_transaction_hash: String(s.last_trans_hash),
          status,
        };
      },
    );
  }
}
