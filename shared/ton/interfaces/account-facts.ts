import type { AccountInterfaces, DerivedRole } from '../actions/interfaces.js';
import { bodySlice, loadAddr } from '../bodies/cell.js';
import { MULTISIG_APPROVE, MULTISIG_APPROVE_ACCEPTED, MULTISIG_APPROVE_REJECTED, MULTISIG_EXECUTE, MULTISIG_INIT_ORDER, loadMultisigOrderData } from '../bodies/Multisig.js';
import { getgemsSaleFacts, getgemsSaleVersion } from './getgems-sale.js';
import { readNftAuction } from './auction-facts.js';
import { dedustPoolAssets, isDedustPoolCode } from './dedust-pool.js';
import { isJVaultStakeWallet, jvaultNamedAccounts, jvaultPoolData, jvaultStakeWalletData } from './jvault-data.js';
import { isNominatorPool } from './nominator-pool.js';
import { interfacesOfCode } from './repository.js';

/**
 * What the action classifier needs to know about one account (shared/ton/actions/interfaces.ts), from its stored
 * state and from what a trace's messages show about it. A code hash in the known table (code-hashes.ts) settles the
 * interface; otherwise a message only a jetton wallet (or NFT item) takes or sends marks the account as one, as
 * TON Center's detector would find by running the standard get-methods. Either way the fields come from the
 * account's data cell in the standard layouts:
 *  - jetton wallet (TEP-74 reference wallet): `balance:Coins owner_address:MsgAddress jetton_master_address:MsgAddress
 *    jetton_wallet_code:^Cell`; a governed (stablecoin-contract) wallet, known by its code hash, stores a status
 *    first: `status:uint4 balance:Coins owner_address:MsgAddressInt jetton_master_address:MsgAddressInt`
 *    (stablecoin-contract jetton-wallet.fc `storage#_`). Either way the fields `get_wallet_data` returns;
 *  - NFT item (TEP-62 reference item): `index:uint64 collection_address:MsgAddress owner_address:MsgAddress
 *    content:^Cell` (before initialisation only index and collection); a .ton domain item, known by its code hash,
 *    has a 256-bit index (dns-contract nft-item.fc `load_data`: `index:uint256 collection_address owner_address
 *    content:^Cell domain:^Cell auction:(Maybe ^Cell) last_fill_up_time:uint64`);
 *  - getgems fixed-price sale (known by its code hash only): getgems-sale.ts, per version;
 *  - multisig v2 order (multisig-contract-v2 order.func `load_data`, read by bodies/Multisig.ts): the multisig, and
 *    the signers from the data's first reference when it is at hand. A deployed multisig runs its orders with the
 *    order code as a library reference, so the code hash need not be a known one: an order also shows by taking
 *    `init` / `approve` or by sending `approve_accepted` / `approve_rejected` / `execute`;
 *  - getgems auction: auction-facts.ts;
 *  - nominator pool (its code hash only): nominator-pool.ts;
 *  - DeDust pool (its code hash, and the assets of the swap logs it emitted in the trace): dedust-pool.ts;
 *  - JVault stake wallet (an unstake sent to it) and its pool (named by the stake wallet's data): their data as the
 *    `data_boc` extra facts, jvault-data.ts.
 * A data cell in another layout yields nothing for that interface (the classifier then leaves the transfer as its
 * basic blocks, as TON Center does for an account whose get-methods fail).
 */

/** TEP-74 `transfer`, `internal_transfer`: bodies only a jetton wallet takes. */
const JETTON_WALLET_IN_OPS = new Set([0x0f8a7ea5, 0x178d4519, 0x595f07bc]);
/** TEP-74 `transfer_notification`, `excesses` (from a wallet), `burn_notification`: bodies a jetton wallet sends. */
const JETTON_WALLET_OUT_OPS = new Set([0x7362d09c, 0x7bdd97de]);
/** TEP-62 `transfer`, `get_static_data`: bodies an NFT item takes. */
const NFT_ITEM_IN_OPS = new Set([0x5fcc3d14, 0x2fcb26a2]);
/** TEP-62 `ownership_assigned`, `report_static_data`: bodies an NFT item sends. */
const NFT_ITEM_OUT_OPS = new Set([0x05138d91, 0x8b771735]);
/** Multisig v2 `init`, `approve`: bodies an order takes; `approve_accepted`, `approve_rejected`, `execute`: bodies it sends. */
const MULTISIG_ORDER_IN_OPS = new Set([MULTISIG_INIT_ORDER, MULTISIG_APPROVE]);
const MULTISIG_ORDER_OUT_OPS = new Set([MULTISIG_APPROVE_ACCEPTED, MULTISIG_APPROVE_REJECTED, MULTISIG_EXECUTE]);

/** The accounts an account's facts name, with the role each gets: what a reader looks up next. */
export function namedAccounts(facts: AccountInterfaces | undefined): Array<[string, DerivedRole]> {
  const out = jvaultNamedAccounts(facts?.extra);
  const nft = facts?.nftAuction?.nft;
  if (nft) out.push([nft, 'nft_item']);
  return out;
}

export interface AccountEvidence {
  /** Opcodes (unsigned 32-bit) of messages the account received in the trace. */
  inOps: ReadonlySet<number>;
  /** Opcodes of messages the account sent in the trace. */
  outOps: ReadonlySet<number>;
  /** Bodies (base64 BoC) of the external-out messages (logs) the account emitted in the trace. */
  logs?: readonly string[];
  /** Roles another account's data gives it in the trace (jvault-data.ts): its pool, a pool's lock wallet. */
  roles?: ReadonlySet<DerivedRole>;
}

/** Code names (code-hashes.ts) of jetton wallets whose data starts with `status:uint4` (governed / stablecoin wallets). */
const STATUS_FIRST_WALLETS = new Set(['jetton_wallet_governed']);

interface Reading {
  names: Set<string>;
  jettonWallet: boolean;
  nftItem: boolean;
  multisigOrder: boolean;
  nftAuction: boolean;
}

function reading(codeHash: string | null, evidence: AccountEvidence): Reading {
  const known = interfacesOfCode(codeHash);
  const kinds = new Set(known.map((i) => i.kind));
  const shows = (inOps: Set<number>, outOps: Set<number>): boolean => [...evidence.inOps].some((o) => inOps.has(o)) || [...evidence.outOps].some((o) => outOps.has(o));
  return {
    names: new Set(known.map((i) => i.name)),
    jettonWallet: kinds.has('jetton_wallet') || shows(JETTON_WALLET_IN_OPS, JETTON_WALLET_OUT_OPS) || evidence.roles?.has('jetton_wallet') === true,
    nftItem: kinds.has('nft_item') || kinds.has('dns_item') || shows(NFT_ITEM_IN_OPS, NFT_ITEM_OUT_OPS) || evidence.roles?.has('nft_item') === true,
    multisigOrder: kinds.has('multisig_order') || shows(MULTISIG_ORDER_IN_OPS, MULTISIG_ORDER_OUT_OPS),
    nftAuction: kinds.has('nft_auction'),
  };
}

/**
 * Whether {@link accountFacts} reads the account's data cell: a reader whose state row lacks the data rebuilds it
 * (from the cell store) only for these accounts, not for every wallet a trace touches.
 */
export function factsNeedData(codeHash: string | null, evidence: AccountEvidence): boolean {
  const r = reading(codeHash, evidence);
  return r.jettonWallet || r.nftItem || r.multisigOrder || r.nftAuction || getgemsSaleVersion(codeHash) !== null || isJVaultStakeWallet(evidence.inOps) || evidence.roles?.has('jvault_pool') === true;
}

/**
 * Whether a matcher reads the StateInit that deployed an account of this code (a getgems sale: its listing,
 * shared/ton/actions/marketplace.ts), so that the reader fetches it for the deploying message.
 */
export function deploymentNeedsInit(codeHash: string | null): boolean {
  return getgemsSaleVersion(codeHash) !== null;
}

/**
 * The facts of one account. `state.dataBoc` is its data cell, or that cell's own bits without its references (every
 * jetton wallet and NFT item field read here is in the data root's bits: shared/ton/cells `recordBitsBoc`; a sale's
 * fees are in a referenced cell).
 */
export function accountFacts(address: string, state: { codeHash: string | null; dataBoc: string | null }, evidence: AccountEvidence): AccountInterfaces | undefined {
  const r = reading(state.codeHash, evidence);
  const out: AccountInterfaces = {};
  if (state.dataBoc !== null && r.jettonWallet) {
    try {
      const s = bodySlice(state.dataBoc);
      if ([...r.names].some((n) => STATUS_FIRST_WALLETS.has(n))) s.skip(4);
      const balance = s.loadCoins();
      const owner = loadAddr(s);
      const jetton = loadAddr(s);
      if (owner !== null && jetton !== null) out.jettonWallet = { address, owner, jetton, balance };
    } catch {
      // Not the layout of its code.
    }
  }
  if (state.dataBoc !== null && r.nftItem) {
    try {
      const s = bodySlice(state.dataBoc);
      const dns = interfacesOfCode(state.codeHash).some((i) => i.kind === 'dns_item');
      const index = s.loadUintBig(dns ? 256 : 64);
      const collection = loadAddr(s);
      const owner = s.remainingBits > 0 ? loadAddr(s) : null;
      out.nftItem = { address, index, collection, owner, init: owner !== null };
      if (dns) out.nftItem.dns = true;
    } catch {
      // Not the reference layout.
    }
  }
  if (state.dataBoc !== null && r.multisigOrder) {
    try {
      const d = loadMultisigOrderData(bodySlice(state.dataBoc));
      if (d !== null) out.multisigOrder = { address, multisig: d.multisig, signers: d.signers ?? [] };
    } catch {
      // Not an order's layout.
    }
  }
  const sale = getgemsSaleFacts(address, state.codeHash, state.dataBoc);
  if (sale !== null) out.nftSale = sale;
  if (state.dataBoc !== null && r.nftAuction) {
    const auction = readNftAuction(address, state.codeHash, state.dataBoc);
    if (auction !== null) out.nftAuction = auction;
  }
  if (isNominatorPool(state.codeHash)) out.nominatorPool = true;
  const assets = isDedustPoolCode(state.codeHash) ? dedustPoolAssets(evidence.logs ?? []) : null;
  if (assets !== null) out.dedustPool = { address, assets };
  const jvault = state.dataBoc === null ? null : isJVaultStakeWallet(evidence.inOps) ? jvaultStakeWalletData(state.dataBoc) : evidence.roles?.has('jvault_pool') ? jvaultPoolData(state.dataBoc) : null;
  if (jvault !== null) out.extra = { data_boc: jvault };
  return Object.keys(out).length > 0 ? out : undefined;
}
