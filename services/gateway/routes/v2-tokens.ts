import { type ParsedAddress, friendlyAddress } from '../../../shared/ton/address.js';
import type { TokenContent } from '../../../shared/ton/token-content.js';
import { type TokenData, readTokenData } from '../../../shared/tvm/token-data.js';
import { ApiError, unprocessable } from '../errors.js';
import { V2TokenDataQuery, V2TokenDataResponse } from '../schemas/v2-read.js';
import type { GatewayTvm } from '../tvm.js';
import { tvmApiError } from '../tvm.js';
import { type V2Operation, errors, tags } from './v2-common.js';
import { requireTvm } from './v2-tvm.js';

/**
 * API v2 getTokenData (REST `GET /api/v2/getTokenData` and JSON-RPC): what a jetton or NFT contract's standard
 * get-methods say, run on the TVM on the indexed state (shared/tvm/token-data.ts decides the kind), in the C++
 * ton-http-api's `TokenData` shape: `@type` `ext.tokens.*`, `contract_type`, numbers as decimal strings, addresses
 * the contract returns as bounceable mainnet user-friendly base64url, absent when `addr_none`; the `address` echoed
 * in the form it was given (raw as `wc:HEX`). An account that is none of the four is 409.
 */

/** An address a contract returned, as the server prints it (`block::StdAddress` bounceable, not test-only). */
const printed = (raw: string): string => friendlyAddress(raw, { bounceable: true, testnet: false }) ?? raw;

/** The requested address as the server echoes it: raw as `wc:HEX`, user-friendly re-encoded url-safe with its flags. */
function given(a: ParsedAddress): string {
  if (!a.friendly) return a.raw;
  return friendlyAddress(a.raw, { bounceable: a.friendly.bounceable, testnet: a.friendly.testOnly }) ?? a.raw;
}

function contentOf(c: TokenContent) {
  return c.onchain ? { type: 'onchain' as const, data: c.data } : { type: 'offchain' as const, data: c.uri };
}

function render(address: string, t: TokenData) {
  switch (t.type) {
    case 'jetton_master':
      return {
        '@type': 'ext.tokens.jettonMasterData' as const,
        address,
        contract_type: t.type,
        total_supply: t.totalSupply.toString(),
        mintable: t.mintable,
        ...(t.admin !== null ? { admin_address: printed(t.admin) } : {}),
        jetton_content: contentOf(t.content),
        jetton_wallet_code: t.walletCode,
      };
    case 'jetton_wallet':
      return {
        '@type': 'ext.tokens.jettonWalletData' as const,
        address,
        contract_type: t.type,
        balance: t.balance.toString(),
        owner: printed(t.owner),
        jetton: printed(t.jetton),
        ...(t.mintlessIsClaimed !== null ? { mintless_is_claimed: t.mintlessIsClaimed } : {}),
        jetton_wallet_code: t.walletCode,
      };
    case 'nft_collection':
      return {
        '@type': 'ext.tokens.nftCollectionData' as const,
        address,
        contract_type: t.type,
        next_item_index: t.nextItemIndex.toString(),
        ...(t.owner !== null ? { owner_address: printed(t.owner) } : {}),
        collection_content: contentOf(t.content),
      };
    case 'nft_item':
      return {
        '@type': 'ext.tokens.nftItemData' as const,
        address,
        contract_type: t.type,
        init: t.init,
        index: t.index.toString(),
        ...(t.collection !== null ? { collection_address: printed(t.collection) } : {}),
        ...(t.owner !== null ? { owner_address: printed(t.owner) } : {}),
        content: contentOf(t.content),
      };
  }
}

export function v2TokenOperations(operation: V2Operation, tvm: GatewayTvm | undefined): void {
  operation(
    'getTokenData',
    {
      schema: {
        tags,
        summary: 'Get token data (v2)',
        description:
          'Jetton master, jetton wallet, NFT collection or NFT item data from the contract\'s standard get-methods, run on the TVM on the account state ' +
          'after the newest indexed masterchain block (or `seqno`). A jetton wallet is confirmed by its master, an NFT item by its collection (whose ' +
          '`get_nft_content` gives the full content). Metadata (TEP-64) is `onchain` (the standard attributes) or `offchain` (the URI). ' +
          '409 when the contract is none of these.',
        querystring: V2TokenDataQuery,
        response: { 200: V2TokenDataResponse, ...errors, 409: errors[500], 503: errors[500] },
      },
    },
    async (req, q) => {
      if (q.seqno !== undefined && q.seqno <= 0) throw unprocessable('seqno should be positive');
      const service = requireTvm(tvm, req);
      const address = given(q.address);
      let data: TokenData | null;
      try {
        data = await readTokenData(service, q.address.raw, q.seqno === undefined ? {} : { seqno: q.seqno });
      } catch (e) {
        throw tvmApiError(e);
      }
      if (data === null) throw new ApiError(409, `Smart contract ${address} is not Jetton or NFT`);
      return { ok: true as const, result: render(address, data) };
    },
  );
}
