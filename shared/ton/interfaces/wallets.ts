import { Boc } from '../boc/reader.js';
import { Slice } from '../boc/slice.js';

/**
 * Wallets known by code hash (indexing-semantics §3.1, §5.5): the wallet types of walletStates /
 * walletInformation, the interfaces of the address book, and TON Center's bounceable rule. Hashes are standard
 * base64 as the store keeps them; the table is checked against the compiled wallet codes in the fixtures
 * (`contracts/*.code.boc`) and tongo's interface list (`contracts/tongo_interface_code_hashes.json`) by
 * interfaces.test.ts. The wider table of contracts (jettons, NFTs, DNS, multisig, DEX) is code-hashes.ts.
 */

export interface WalletKind {
  /** `wallet_type` as TON Center prints it, with spaces: `"wallet v4 r2"`. */
  type: string;
  /** Interface name of the address book: `wallet_v4r2`. */
  iface: string;
  /** What the data cell holds (indexing-semantics §5.5). */
  layout: 'seqno' | 'seqno_id' | 'v5';
}

/** The eleven wallet codes of TON Center (walletStates `is_wallet`, non-bounceable user-friendly form). */
export const WALLETS: ReadonlyMap<string, WalletKind> = new Map([
  ['oM/CxIruFqJx8s/AtzgtgXVs7LEBfQd/qqs7tgL2how=', { type: 'wallet v1 r1', iface: 'wallet_v1r1', layout: 'seqno' }],
  ['1JAvzJ+tdGmPqONTIgpo2g3PcuMryy657gQhfBfTBiw=', { type: 'wallet v1 r2', iface: 'wallet_v1r2', layout: 'seqno' }],
  ['WHzHie/xyE9G7DeX5F/ICaFP9a4k8eDHpqmcydyQYf8=', { type: 'wallet v1 r3', iface: 'wallet_v1r3', layout: 'seqno' }],
  ['XJpeaMEI4YchoHxC+ZVr+zmtd+xtYktgxXbsiO7mUyk=', { type: 'wallet v2 r1', iface: 'wallet_v2r1', layout: 'seqno' }],
  ['/pUw0yQ4Uwg+8u8LTCkIwKv2+hwx6iQ6rKpb+MfXU/E=', { type: 'wallet v2 r2', iface: 'wallet_v2r2', layout: 'seqno' }],
  ['thBBpYp5gLlG6PueGY48kE0keZ/6NldOpCUcQaVm9YE=', { type: 'wallet v3 r1', iface: 'wallet_v3r1', layout: 'seqno_id' }],
  ['hNr6RJ+Ypph3ibojI1gHK8D3bcRSQAKl0JGLmnXS1Zk=', { type: 'wallet v3 r2', iface: 'wallet_v3r2', layout: 'seqno_id' }],
  ['ZN1UgFUixb6KnbWc6gEFzPDQh4bKeb64y3nogKjXMi0=', { type: 'wallet v4 r1', iface: 'wallet_v4r1', layout: 'seqno_id' }],
  ['/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=', { type: 'wallet v4 r2', iface: 'wallet_v4r2', layout: 'seqno_id' }],
  ['89fKU0k97trCizgZhqhJQDy6w9LFhHea8IEGWvCsS5M=', { type: 'wallet v5 beta', iface: 'wallet_v5_beta', layout: 'v5' }],
  ['IINLe3KxEhR+Gy+0V7hOdNGjDwT3N9T2KmaOlVLSty8=', { type: 'wallet v5 r1', iface: 'wallet_v5r1', layout: 'v5' }],
]);

/**
 * Other contracts recognised by code hash alone: highload and special wallets. They are not wallets for
 * walletStates (TON Center: "highload wallets are NOT wallets here") and their user-friendly form is bounceable.
 */
export const SPECIAL_WALLETS: ReadonlyMap<string, string> = new Map([
  ['2M27t58sXKpnesRQdwvgNRviHhJQSG3oXMUqoz3RZIQ=', 'wallet_highload_v1r1'],
  ['Dc7tISadZgE+lbGfu1xVpvAa2tQIN7qo5SHN46AqpGw=', 'wallet_highload_v1r2'],
  ['lJTRzI7fEvBWcaGpugmSEJbrUIEeGSTsZcPGKfu4CBI=', 'wallet_highload_v2'],
  ['jOtFs81LXMYOquHBO5wJI5Jnf+U2sumy2AG2Lv+TH+E=', 'wallet_highload_v2r1'],
  ['ID3U81ittJmTEpqpJcrDmRa2ig5PeNJujywraer6Vnk=', 'wallet_highload_v2r2'],
  ['EayteVWEQJDyg78ji8FEmHH3g+fMCXlAjT9IWUg+hSU=', 'wallet_highload_v3r1'],
  ['Reu86bXSNYhstr/hw62TtwjeBYJEiSNlye4N/kOct7U=', 'wallet_preprocessed_v2'],
  ['tItTGr7DtxRjgpH3137W3J9qJynvyiBHcTc3TUrotZA=', 'wallet_vesting'],
]);

/** The wallet kind of a code hash, if it is one of the eleven wallets. */
export function walletKind(codeHash: string | null | undefined): WalletKind | undefined {
  return codeHash ? WALLETS.get(codeHash) : undefined;
}

/**
 * The address book's `interfaces` of a code hash as TON Center prints them by code-hash match: the wallet and
 * special-wallet names; `[]` when unknown. (TON Center's get-method-based detection of other interfaces is not
 * done here.)
 */
export function addressBookInterfaces(codeHash: string | null | undefined): string[] {
  if (!codeHash) return [];
  const w = WALLETS.get(codeHash);
  if (w) return [w.iface];
  const other = SPECIAL_WALLETS.get(codeHash);
  return other ? [other] : [];
}

/**
 * TON Center's bounceable rule for `user_friendly`: non-bounceable when the account has no code hash (unknown,
 * uninit, frozen, nonexist) or runs one of the eleven wallet codes; bounceable otherwise.
 */
export function isBounceable(codeHash: string | null | undefined): boolean {
  return !!codeHash && !WALLETS.has(codeHash);
}

export interface WalletData {
  seqno?: number;
  wallet_id?: number;
  is_signature_allowed?: boolean;
}

/**
 * Reads seqno, wallet_id and is_signature_allowed from a wallet's data cell (base64 BOC). Returns `{}` when the
 * data is absent or does not have the layout its code implies (TON Center then omits the fields as well).
 */
export function parseWalletData(kind: WalletKind, dataBoc: string | null | undefined): WalletData {
  if (!dataBoc) return {};
  try {
    const boc = Boc.parse(Buffer.from(dataBoc, 'base64'));
    const s = new Slice(boc, boc.root);
    switch (kind.layout) {
      case 'seqno':
        return { seqno: s.loadUint(32) };
      case 'seqno_id': {
        const seqno = s.loadUint(32);
        return { seqno, wallet_id: s.loadUint(32) };
      }
      case 'v5': {
        const allowed = s.loadBit();
        const seqno = s.loadUint(32);
        return { is_signature_allowed: allowed, seqno, wallet_id: s.loadUint(32) };
      }
    }
  } catch {
    return {};
  }
}
