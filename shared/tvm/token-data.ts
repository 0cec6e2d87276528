import { type Cell, type TupleItem, beginCell } from '@ton/core';
import { parseAddressForm } from '../ton/address.js';
import { type TokenContent, TokenContentError, parseTokenContent, stackAddress } from '../ton/token-content.js';
import type { GetMethodResult, TvmService } from './service.js';

/**
 * What a jetton or NFT contract says about itself through its standard get-methods (TEP-74 jettons, TEP-62 NFTs),
 * decided as TON Center's v2 server decides it for getTokenData (toncenter/ton-http-api-cpp
 * `tonlib_worker_tokens.cpp`): the account is tried as a jetton master (`get_jetton_data`), a jetton wallet
 * (`get_wallet_data`, confirmed by its master's `get_wallet_address` for its owner, plus `is_claimed` of mintless
 * jettons), an NFT collection (`get_collection_data`) and an NFT item (`get_nft_data`, confirmed by its
 * collection's `get_nft_address_by_index`, its full content from the collection's `get_nft_content`), in that
 * order; the first that answers in the standard's shape wins. A try fails on a non-zero exit code, a short stack,
 * an entry of the wrong type, metadata that does not parse, or a confirmation that does not match.
 *
 * Failures of the TVM itself (busy, timed out, no code and data for the state) are not "not a token" and propagate.
 */

export type TokenData =
  | {
      type: 'jetton_master';
      totalSupply: bigint;
      mintable: boolean;
      /** Raw `wc:HEX`; null for `addr_none`. */
      admin: string | null;
      content: TokenContent;
      /** The wallet code cell as tonlib serializes it (base64 BOC, no index, no CRC). */
      walletCode: string;
    }
  | {
      type: 'jetton_wallet';
      balance: bigint;
      owner: string;
      jetton: string;
      /** `is_claimed` of a mintless jetton wallet; null when the wallet has no such get-method. */
      mintlessIsClaimed: boolean | null;
      walletCode: string;
    }
  | { type: 'nft_collection'; nextItemIndex: bigint; owner: string | null; content: TokenContent }
  | { type: 'nft_item'; init: boolean; index: bigint; collection: string | null; owner: string | null; content: TokenContent };

/** One try did not fit (the server logs these and moves on). */
class NotThisType extends Error {}

const TYPE_ERRORS = [NotThisType, TokenContentError];

function tonlibBoc(c: Cell): string {
  return c.toBoc({ idx: false, crc32: false }).toString('base64');
}

function ok(r: GetMethodResult, minStack: number): TupleItem[] {
  if (r.exitCode !== 0) throw new NotThisType(`Exit code ${r.exitCode} != 0`);
  if (r.stack.length < minStack) throw new NotThisType(`Stack size ${r.stack.length} < ${minStack}`);
  return r.stack;
}

function num(e: TupleItem | undefined): bigint {
  if (e?.type !== 'int') throw new NotThisType('stackEntryNumber expected');
  return e.value;
}

function cell(e: TupleItem | undefined, at: number): Cell {
  if (e?.type !== 'cell') throw new NotThisType(`stackEntryCell expected at ${at} position`);
  return e.cell;
}

/** An address in a cell or slice entry: raw `wc:HEX`, or null for `addr_none`. */
function addr(e: TupleItem | undefined): string | null {
  if (e?.type !== 'cell' && e?.type !== 'slice') throw new NotThisType('stackEntryCell or stackEntrySlice expected');
  return stackAddress(e.cell.toBoc({ idx: false, crc32: false }));
}

function content(c: Cell): TokenContent {
  return parseTokenContent(c.toBoc({ idx: false, crc32: false }));
}

/** The server reads flags with `std::stoi`: any non-zero value is true. */
const flag = (v: bigint): boolean => v !== 0n;

const sameAccount = (a: string, b: string): boolean => parseAddressForm(a).raw === parseAddressForm(b).raw;

/** `addr_std$10 anycast:nothing workchain:int8 address:bits256` of a raw address, as a slice entry. */
function addressSlice(raw: string): TupleItem {
  const a = parseAddressForm(raw);
  const b = beginCell().storeUint(2, 2).storeBit(0).storeInt(a.workchain, 8).storeBuffer(Buffer.from(a.hash));
  return { type: 'slice', cell: b.endCell() };
}

/**
 * The token data of `address` (raw `wc:HEX`) at masterchain block `at.seqno` (default: the latest state), or null
 * when it is none of the four.
 */
export async function readTokenData(tvm: TvmService, address: string, at: { seqno?: number } = {}): Promise<TokenData | null> {
  const run = (account: string, method: string, stack: TupleItem[] = []) => tvm.runGetMethod(account, method, stack, at);
  const [master, wallet, collection, item] = await Promise.all([
    run(address, 'get_jetton_data'),
    run(address, 'get_wallet_data'),
    run(address, 'get_collection_data'),
    run(address, 'get_nft_data'),
  ]);

  const tries: Array<() => Promise<TokenData> | TokenData> = [
    () => {
      const s = ok(master, 5);
      const totalSupply = num(s[0]);
      const mintable = flag(num(s[1]));
      const admin = addr(s[2]);
      const c = content(cell(s[3], 3));
      return { type: 'jetton_master', totalSupply, mintable, admin, content: c, walletCode: tonlibBoc(cell(s[4], 4)) };
    },
    async () => {
      const s = ok(wallet, 4);
      const claimed = await run(address, 'is_claimed');
      const balance = num(s[0]);
      const owner = addr(s[1]);
      const jetton = addr(s[2]);
      const c = claimed.stack[0];
      const mintlessIsClaimed = claimed.exitCode === 0 && claimed.stack.length === 1 && c?.type === 'int' ? flag(c.value) : null;
      const walletCode = tonlibBoc(cell(s[3], 3));
      if (owner === null || jetton === null) throw new NotThisType('the wallet names no owner or no master');
      const expected = ok(await run(jetton, 'get_wallet_address', [addressSlice(owner)]), 1);
      const fromMaster = addr(expected[0]);
      if (fromMaster === null || !sameAccount(fromMaster, address)) throw new NotThisType('Verification on master failed');
      return { type: 'jetton_wallet', balance, owner, jetton, mintlessIsClaimed, walletCode };
    },
    () => {
      const s = ok(collection, 3);
      const nextItemIndex = num(s[0]);
      const c = content(cell(s[1], 1));
      return { type: 'nft_collection', nextItemIndex, owner: addr(s[2]), content: c };
    },
    async () => {
      const s = ok(item, 5);
      const init = flag(num(s[0]));
      const index = num(s[1]);
      const coll = addr(s[2]);
      const owner = addr(s[3]);
      const individual = cell(s[4], 4);
      if (coll === null) return { type: 'nft_item', init, index, collection: null, owner, content: content(individual) };
      const byIndex = ok(await run(coll, 'get_nft_address_by_index', [{ type: 'int', value: index }]), 1);
      const fromCollection = addr(byIndex[0]);
      if (fromCollection === null || !sameAccount(fromCollection, address)) throw new NotThisType('Verification on collection failed');
      const full = ok(await run(coll, 'get_nft_content', [{ type: 'int', value: index }, { type: 'cell', cell: individual }]), 1);
      return { type: 'nft_item', init, index, collection: coll, owner, content: content(cell(full[0], 0)) };
    },
  ];

  for (const t of tries) {
    try {
      return await t();
    } catch (e) {
      if (TYPE_ERRORS.some((k) => e instanceof k)) continue;
      throw e;
    }
  }
  return null;
}
