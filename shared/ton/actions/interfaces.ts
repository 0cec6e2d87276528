/**
 * What the classifier needs to know about accounts: the interfaces detected on them (by code hash) and the few
 * fields read from their state. The classifier depends only on this lookup; shared/ton/interfaces (code-hash
 * detection) or a recorded trace's interface table provides it.
 */
export interface JettonWalletInfo {
  address: string;
  owner: string;
  jetton: string;
  balance?: bigint | null;
}

export interface NftItemInfo {
  address: string;
  index: bigint | null;
  collection: string | null;
  owner: string | null;
  init?: boolean;
  /** TON DNS / Telegram usernames: the item's domain, when known. */
  domain?: string | null;
  /** The `uri` of the item's metadata, when known (a Telegram item's is on nft.fragment.com). */
  contentUri?: string | null;
  /** A TON DNS item (by its code or its collection). */
  dns?: boolean;
}

/**
 * Getgems fixed-price sale contract versions (TON Center `SALE_VERSION_MAPPING`), by their storage layouts. `v1`
 * (nft-fixprice-sale.fc) is only ever known from a recorded interface's code hash: production does not detect it.
 */
export type GetgemsSaleVersion = 'v1' | 'v2' | 'v3' | 'v3r2' | 'v3r3' | 'v4r1';

export interface NftSaleInfo {
  address: string;
  marketplace: string | null;
  nft: string | null;
  owner: string | null;
  fullPrice: bigint | null;
  marketplaceFee?: bigint | null;
  royaltyAmount?: bigint | null;
  marketplaceFeeAddress?: string | null;
  royaltyAddress?: string | null;
  /** A getgems fixed-price sale's version, when known from its code (the layout its listing is read in). */
  version?: GetgemsSaleVersion;
  isComplete?: boolean;
  createdAt?: number;
}

/** A multisig v2 order contract (TON Center `MultisigOrder`): what the multisig actions read from it. */
export interface MultisigOrderInfo {
  address: string;
  multisig: string | null;
  /** The order's signers (raw addresses, index order); [] when its data's signers cell is not at hand. */
  signers: string[];
}

/**
 * A getgems auction: `fullPrice` is its last bid; the rest is its configuration (fees as factor/base fractions,
 * bid limits), with the contract's layout version (`v2`, `v3r2`, `v3r3`, `v4r1`) when read from its data.
 */
export interface NftAuctionInfo extends Omit<NftSaleInfo, 'version'> {
  version?: string | null;
  mpFeeFactor?: bigint | null;
  mpFeeBase?: bigint | null;
  royaltyFeeFactor?: bigint | null;
  royaltyFeeBase?: bigint | null;
  minBid?: bigint | null;
  maxBid?: bigint | null;
}

/**
 * What an account is known to be because another account's data names it, though the trace need not touch it: a
 * JVault stake wallet's pool and that pool's lock wallet (jvault-data.ts), the NFT item a getgems auction holds
 * (TON Center reports its index and collection with a bid or an outbid).
 */
export type DerivedRole = 'jvault_pool' | 'jetton_wallet' | 'nft_item';

export interface AccountInterfaces {
  jettonWallet?: JettonWalletInfo;
  nftItem?: NftItemInfo;
  nftSale?: NftSaleInfo;
  nftAuction?: NftAuctionInfo;
  /** A nominator pool (TON Whales-style `d` / `w` comments). */
  nominatorPool?: boolean;
  dedustPool?: { address: string; assets: (string | null)[] };
  multisigOrder?: MultisigOrderInfo;
  /**
   * Extra facts read from an account's state, by request name (TON Center `get_extra_data`): `data_boc` is
   * `{data_boc: <base64 BOC>, ...}` plus fields decoded from it (a JVault pool's `lock_wallet_address`).
   */
  extra?: Record<string, Record<string, unknown>>;
}

/** `(address) => interfaces`: raw upper-case address in, what is known about it out (undefined: nothing). */
export type InterfaceRepository = (address: string) => AccountInterfaces | undefined;

export function jettonWallet(repo: InterfaceRepository, address: string | null | undefined): JettonWalletInfo | null {
  if (!address) return null;
  return repo(address)?.jettonWallet ?? null;
}

export function nftItem(repo: InterfaceRepository, address: string | null | undefined): NftItemInfo | null {
  if (!address) return null;
  return repo(address)?.nftItem ?? null;
}
