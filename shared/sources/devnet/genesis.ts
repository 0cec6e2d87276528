import { hashmapRoot } from '../../ton/tlb/Hashmap.js';
import type { GenesisAccount } from './chain.js';
import { type DCell, DBuilder } from './cell.js';
import type { StdAddr } from './tlb.js';
import { DEFAULT_SUBWALLET, Wallet, type WalletKind, contractAddress, contractCode, deriveKey } from './wallets.js';

/**
 * The devnet's genesis: funded wallets of every common kind, two jettons (the standard token-contract one and a
 * stablecoin-style governed one) with minters and holders, an NFT collection with items, a .ton DNS collection, a
 * multisig v2 wallet and a vesting wallet. All real contract code (contracts.ts); each data cell follows its
 * contract's storage layout. Everything is derived from the seed, so the same seed gives the same chain, and the
 * traffic generator can find every actor again after a restart.
 */

export const TON = 1_000_000_000n;

export interface JettonActors {
  kind: 'standard' | 'stablecoin';
  minter: StdAddr;
  admin: Wallet;
  walletCode: DCell;
  /** Wallets that hold this jetton at genesis. */
  holders: Wallet[];
  /** The jetton wallet address of an owner. */
  walletOf(owner: StdAddr): StdAddr;
}

export interface Actors {
  /** Basechain wallets that send traffic. */
  wallets: Wallet[];
  /** Masterchain wallets (cross-workchain traffic). */
  mcWallets: Wallet[];
  jetton: JettonActors;
  stablecoin: JettonActors;
  nft: { collection: StdAddr; owner: Wallet; itemCode: DCell; items: number; itemAddress(index: number): StdAddr };
  dns: { collection: StdAddr };
  multisig: { address: StdAddr; signers: Wallet[]; threshold: number };
  vesting: { address: StdAddr; owner: Wallet; sender: Wallet; wallet: Wallet };
}

export interface GenesisOptions {
  seed: string;
  now: number;
  /** Basechain wallets per kind (v3r2, v4r2, v5r1); highload v3 gets a quarter as many (at least 1). */
  walletsPerKind?: number;
}

const KINDS: WalletKind[] = ['v3r2', 'v4r2', 'v5r1'];

/** The actors of a seed (no chain needed: addresses and keys only). */
export function actors(opts: GenesisOptions): Actors {
  const per = opts.walletsPerKind ?? 16;
  const wallets: Wallet[] = [];
  for (let i = 0; i < per; i++) {
    for (const kind of KINDS) wallets.push(new Wallet(kind, deriveKey(`${opts.seed}:wallet:${kind}:${i}`), 0, DEFAULT_SUBWALLET + i));
  }
  const highload = Math.max(1, Math.floor(per / 4));
  for (let i = 0; i < highload; i++) wallets.push(new Wallet('highload-v3', deriveKey(`${opts.seed}:wallet:highload:${i}`), 0, 0x10ad + i));
  const mcWallets = [0, 1].map((i) => new Wallet('v3r2', deriveKey(`${opts.seed}:wallet:mc:${i}`), -1, DEFAULT_SUBWALLET + i));

  const jettonWalletCode = contractCode('jettonWallet');
  const minterCode = contractCode('jettonMinter');
  const jettonAdmin = wallets[0]!;
  const jettonMinterData = standardMinterData(0n, jettonAdmin.address, offchainContent('https://devnet.tonflow.local/jetton/devusd.json'), jettonWalletCode);
  const jettonMinter = contractAddress(0, minterCode, jettonMinterData);
  const jetton: JettonActors = {
    kind: 'standard',
    minter: jettonMinter,
    admin: jettonAdmin,
    walletCode: jettonWalletCode,
    holders: wallets.slice(0, Math.min(wallets.length, 24)),
    walletOf: (owner) => contractAddress(0, jettonWalletCode, standardWalletData(0n, owner, jettonMinter, jettonWalletCode)),
  };

  const stableWalletCode = contractCode('stablecoinWallet');
  const stableAdmin = wallets[1]!;
  const stableMinterData = stablecoinMinterData(0n, stableAdmin.address, stableWalletCode, 'https://devnet.tonflow.local/jetton/dusdt.json');
  const stableMinter = contractAddress(0, contractCode('stablecoinMinter'), stableMinterData);
  const stablecoin: JettonActors = {
    kind: 'stablecoin',
    minter: stableMinter,
    admin: stableAdmin,
    walletCode: stableWalletCode,
    holders: wallets.slice(0, Math.min(wallets.length, 24)),
    walletOf: (owner) => contractAddress(0, stableWalletCode, stablecoinWalletData(0, 0n, owner, stableMinter)),
  };

  const itemCode = contractCode('nftItem');
  const nftOwner = wallets[2]!;
  const collectionInit = nftCollectionData(nftOwner.address, 0, itemCode);
  const collection = contractAddress(0, contractCode('nftCollection'), collectionInit);
  const nft = {
    collection,
    owner: nftOwner,
    itemCode,
    items: 32,
    itemAddress: (index: number) => contractAddress(0, itemCode, nftItemInitData(index, collection)),
  };

  const dnsData = dnsCollectionData(contractCode('dnsItem'));
  const dns = { collection: contractAddress(0, contractCode('dnsCollection'), dnsData) };

  const signers = wallets.slice(3, 6);
  const multisig = { address: contractAddress(0, contractCode('multisigV2'), multisigData(signers.map((w) => w.address), 2)), signers, threshold: 2 };

  const vestingKey = deriveKey(`${opts.seed}:vesting`);
  const vestingOwner = wallets[4]!;
  const vestingSender = wallets[5]!;
  const vestingWallet = new Wallet('v3r2', vestingKey, 0, DEFAULT_SUBWALLET);
  const vestingInit = vestingData(vestingKey.publicKey, DEFAULT_SUBWALLET, { start: opts.now, duration: 365 * 86400, unlockPeriod: 86400, cliff: 0, amount: 100_000n * TON, sender: vestingSender.address, owner: vestingOwner.address });
  const vesting = { address: contractAddress(0, contractCode('vestingWallet'), vestingInit), owner: vestingOwner, sender: vestingSender, wallet: vestingWallet };

  return { wallets, mcWallets, jetton, stablecoin, nft, dns, multisig, vesting };
}

/** The genesis accounts of a seed and its actors. */
export function genesis(opts: GenesisOptions): { accounts: GenesisAccount[]; actors: Actors } {
  const a = actors(opts);
  const accounts: GenesisAccount[] = [];
  const add = (addr: StdAddr, code: DCell, data: DCell, balance: bigint): void => {
    accounts.push({ workchain: addr.workchain, hash: addr.hash, code, data, balance });
  };
  for (const w of a.wallets) add(w.address, w.code, w.data, (w.kind === 'highload-v3' ? 10_000_000n : 1_000_000n) * TON);
  for (const w of a.mcWallets) add(w.address, w.code, w.data, 1_000_000n * TON);

  const holderAmount = 1_000_000n * TON;
  const j = a.jetton;
  const supply = holderAmount * BigInt(j.holders.length);
  add(j.minter, contractCode('jettonMinter'), standardMinterData(supply, j.admin.address, offchainContent('https://devnet.tonflow.local/jetton/devusd.json'), j.walletCode), 10n * TON);
  for (const h of j.holders) add(j.walletOf(h.address), j.walletCode, standardWalletData(holderAmount, h.address, j.minter, j.walletCode), TON);

  const s = a.stablecoin;
  const stableAmount = 1_000_000n * 1_000_000n; // 6 decimals
  add(s.minter, contractCode('stablecoinMinter'), stablecoinMinterData(stableAmount * BigInt(s.holders.length), s.admin.address, s.walletCode, 'https://devnet.tonflow.local/jetton/dusdt.json'), 10n * TON);
  for (const h of s.holders) add(s.walletOf(h.address), s.walletCode, stablecoinWalletData(0, stableAmount, h.address, s.minter), TON);

  const n = a.nft;
  add(n.collection, contractCode('nftCollection'), nftCollectionData(n.owner.address, n.items, n.itemCode), 10n * TON);
  for (let i = 0; i < n.items; i++) {
    const owner = a.wallets[i % a.wallets.length]!;
    add(n.itemAddress(i), n.itemCode, nftItemData(i, n.collection, owner.address, snakeText(`${i}.json`)), TON / 10n);
  }

  add(a.dns.collection, contractCode('dnsCollection'), dnsCollectionData(contractCode('dnsItem')), 10n * TON);
  add(a.multisig.address, contractCode('multisigV2'), multisigData(a.multisig.signers.map((w) => w.address), a.multisig.threshold), 1000n * TON);
  const v = a.vesting;
  add(
    v.address,
    contractCode('vestingWallet'),
    vestingData(v.wallet.key.publicKey, DEFAULT_SUBWALLET, { start: opts.now, duration: 365 * 86400, unlockPeriod: 86400, cliff: 0, amount: 100_000n * TON, sender: v.sender.address, owner: v.owner.address }),
    100_000n * TON,
  );
  return { accounts, actors: a };
}

function cell(fill: (b: DBuilder) => void): DCell {
  const b = new DBuilder();
  fill(b);
  return b.endCell();
}

/** A snake-format text cell (TEP-64), without a prefix byte. */
export function snakeText(text: string): DCell {
  return cell((b) => b.storeBytes(Buffer.from(text, 'utf8')));
}

/** TEP-64 off-chain content: `0x01` + URI. */
export function offchainContent(uri: string): DCell {
  return cell((b) => {
    b.storeUint(1, 8);
    b.storeBytes(Buffer.from(uri, 'utf8'));
  });
}

/** token-contract jetton-minter storage: `total_supply:Coins admin_address:MsgAddress content:^Cell jetton_wallet_code:^Cell`. */
export function standardMinterData(supply: bigint, admin: StdAddr, content: DCell, walletCode: DCell): DCell {
  return cell((b) => {
    b.storeCoins(supply);
    b.storeAddress(admin);
    b.storeRef(content);
    b.storeRef(walletCode);
  });
}

/** token-contract jetton-wallet storage: `balance:Coins owner_address jetton_master_address jetton_wallet_code:^Cell`. */
export function standardWalletData(balance: bigint, owner: StdAddr, master: StdAddr, walletCode: DCell): DCell {
  return cell((b) => {
    b.storeCoins(balance);
    b.storeAddress(owner);
    b.storeAddress(master);
    b.storeRef(walletCode);
  });
}

/** stablecoin-contract minter storage: `total_supply admin_address next_admin_address jetton_wallet_code:^Cell metadata_uri:^Cell`. */
export function stablecoinMinterData(supply: bigint, admin: StdAddr, walletCode: DCell, uri: string): DCell {
  return cell((b) => {
    b.storeCoins(supply);
    b.storeAddress(admin);
    b.storeAddress(null);
    b.storeRef(walletCode);
    b.storeRef(snakeText(uri));
  });
}

/** stablecoin-contract wallet storage: `status:uint4 balance:Coins owner_address jetton_master_address`. */
export function stablecoinWalletData(status: number, balance: bigint, owner: StdAddr, master: StdAddr): DCell {
  return cell((b) => {
    b.storeUint(status, 4);
    b.storeCoins(balance);
    b.storeAddress(owner);
    b.storeAddress(master);
  });
}

/**
 * token-contract nft-collection storage: `owner_address next_item_index:uint64 content:^[collection_content:^Cell
 * common_content:^Cell] nft_item_code:^Cell royalty_params:^[numerator:uint16 denominator:uint16 destination]`.
 */
export function nftCollectionData(owner: StdAddr, nextIndex: number, itemCode: DCell): DCell {
  return cell((b) => {
    b.storeAddress(owner);
    b.storeUint(nextIndex, 64);
    b.storeRef(
      cell((c) => {
        c.storeRef(offchainContent('https://devnet.tonflow.local/nft/collection.json'));
        c.storeRef(snakeText('https://devnet.tonflow.local/nft/'));
      }),
    );
    b.storeRef(itemCode);
    b.storeRef(
      cell((r) => {
        r.storeUint(5, 16);
        r.storeUint(100, 16);
        r.storeAddress(owner);
      }),
    );
  });
}

/** The data an NFT item is deployed with (its address): `index:uint64 collection_address`. */
export function nftItemInitData(index: number, collection: StdAddr): DCell {
  return cell((b) => {
    b.storeUint(index, 64);
    b.storeAddress(collection);
  });
}

/** An initialized NFT item: `index:uint64 collection_address owner_address content:^Cell`. */
export function nftItemData(index: number, collection: StdAddr, owner: StdAddr, content: DCell): DCell {
  return cell((b) => {
    b.storeUint(index, 64);
    b.storeAddress(collection);
    b.storeAddress(owner);
    b.storeRef(content);
  });
}

/** dns-contract root collection storage: `content:^Cell nft_item_code:^Cell`. */
export function dnsCollectionData(itemCode: DCell): DCell {
  return cell((b) => {
    b.storeRef(offchainContent('https://dns.ton.org/collection.json'));
    b.storeRef(itemCode);
  });
}

/**
 * multisig-contract-v2 storage: `next_order_seqno:uint256 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt)
 * signers_num:uint8 proposers:(HashmapE 8 MsgAddressInt) allow_arbitrary_order_seqno:Bool`.
 */
export function multisigData(signers: StdAddr[], threshold: number): DCell {
  // Signers by index 0..n-1, a non-empty Hashmap 8 stored by reference.
  const entries = signers.map((s, i) => ({ key: Uint8Array.of(i), value: s }));
  const dict = hashmapRoot(new DBuilder(), entries, 8, (v, vb) => (vb as DBuilder).storeAddress(v)).cell;
  return cell((b) => {
    b.storeUint(0n, 256); // the deployed build (fixture commit 036f3af6) keeps a 256-bit order seqno
    b.storeUint(threshold, 8);
    b.storeRef(dict);
    b.storeUint(signers.length, 8);
    b.storeBit(0);
    b.storeBit(0);
  });
}

/**
 * vesting-contract storage: `seqno:uint32 subwallet_id:uint32 public_key:uint256 whitelist:(HashmapE 264 True)
 * ^[vesting_start_time:uint64 vesting_total_duration:uint32 unlock_period:uint32 cliff_duration:uint32
 * vesting_total_amount:Coins vesting_sender_address owner_address]`.
 */
export function vestingData(
  publicKey: Uint8Array,
  subwallet: number,
  p: { start: number; duration: number; unlockPeriod: number; cliff: number; amount: bigint; sender: StdAddr; owner: StdAddr },
): DCell {
  return cell((b) => {
    b.storeUint(0, 32);
    b.storeUint(subwallet, 32);
    b.storeBytes(publicKey);
    b.storeBit(0);
    b.storeRef(
      cell((r) => {
        r.storeUint(p.start, 64);
        r.storeUint(p.duration, 32);
        r.storeUint(p.unlockPeriod, 32);
        r.storeUint(p.cliff, 32);
        r.storeCoins(p.amount);
        r.storeAddress(p.sender);
        r.storeAddress(p.owner);
      }),
    );
  });
}
