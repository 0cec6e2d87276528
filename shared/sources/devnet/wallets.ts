import { type KeyObject, createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { type DCell, DBuilder, EMPTY_CELL, parseBocRoot } from './cell.js';
import { CONTRACTS, type ContractName } from './contracts.js';
import type { StdAddr } from './tlb.js';

/**
 * Messages for the devnet's wallets, signed with real Ed25519 keys (node:crypto) so the contracts' signature
 * checks run for real. Layouts follow each contract's source: wallet v3r2/v4r2 (ton-blockchain/wallet-contract),
 * v5r1 (wallet-contract-v5: `signed_external` with the signature last), highload v3 (highload-wallet-contract-v3:
 * `^msg_inner` + signature, query ids as shift/bit number).
 */

const codeCache = new Map<ContractName, DCell>();

/** The code cell of an embedded contract. */
export function contractCode(name: ContractName): DCell {
  let c = codeCache.get(name);
  if (!c) codeCache.set(name, (c = parseBocRoot(Buffer.from(CONTRACTS[name].boc, 'base64'))));
  return c;
}

/** `_ fixed_prefix_length:(Maybe (## 5)) special:(Maybe TickTock) code:(Maybe ^Cell) data:(Maybe ^Cell) library:(Maybe ^Cell)`. */
export function stateInit(code: DCell, data: DCell): DCell {
  const b = new DBuilder();
  b.storeUint(0b00110, 5);
  b.storeRef(code);
  b.storeRef(data);
  return b.endCell();
}

/** The address a StateInit deploys to (its hash). */
export function contractAddress(workchain: number, code: DCell, data: DCell): StdAddr {
  return { workchain, hash: stateInit(code, data).hash() };
}

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: Uint8Array;
}

/** A deterministic Ed25519 key from a seed phrase (the devnet's keys are reproducible from its seed). */
export function deriveKey(seed: string): KeyPair {
  const raw = createHash('sha256').update(seed).digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), raw]), format: 'der', type: 'pkcs8' });
  const publicKey = new Uint8Array(createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12));
  return { privateKey, publicKey };
}

export function signHash(key: KeyPair, hash: Uint8Array): Uint8Array {
  return new Uint8Array(sign(null, hash, key.privateKey));
}

/** An outgoing internal message a wallet is asked to send. */
export interface Transfer {
  to: StdAddr;
  value: bigint;
  bounce: boolean;
  body?: DCell | null;
  init?: DCell | null;
  /** Send mode; default 3 (pay fees separately, ignore errors). */
  mode?: number;
}

/** `message$_ info:CommonMsgInfoRelaxed init body` with `int_msg_info$0` and an empty source (the contract fills it). */
export function internalMessage(t: Omit<Transfer, 'mode'>): DCell {
  const b = new DBuilder();
  b.storeBit(0);
  b.storeBit(1); // ihr_disabled
  b.storeBit(t.bounce);
  b.storeBit(0);
  b.storeUint(0, 2); // src: addr_none
  b.storeAddress(t.to);
  b.storeCoins(t.value);
  b.storeBit(0); // no extra currencies
  b.storeCoins(0n); // extra_flags
  b.storeCoins(0n); // fwd_fee
  b.storeUint(0, 64);
  b.storeUint(0, 32);
  storeInitAndBody(b, t.init ?? null, t.body ?? null);
  return b.endCell();
}

/** An inbound external message (`ext_in_msg_info$10`) to `to`. */
export function externalMessage(to: StdAddr, body: DCell, init: DCell | null = null): DCell {
  const b = new DBuilder();
  b.storeUint(0b10, 2);
  b.storeUint(0, 2); // src: addr_none
  b.storeAddress(to);
  b.storeCoins(0n); // import_fee
  storeInitAndBody(b, init, body);
  return b.endCell();
}

function storeInitAndBody(b: DBuilder, init: DCell | null, body: DCell | null): void {
  b.storeBit(init !== null);
  if (init) {
    b.storeBit(1);
    b.storeRef(init);
  }
  if (!body) {
    b.storeBit(0);
    return;
  }
  b.storeBit(1);
  b.storeRef(body);
}

/** A text comment body (`op 0` + UTF-8, continued in references when long). */
export function commentBody(text: string): DCell {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [bytes.subarray(0, 123)];
  for (let i = 123; i < bytes.length; i += 127) chunks.push(bytes.subarray(i, i + 127));
  let tail: DCell | null = null;
  for (let i = chunks.length - 1; i >= 1; i--) {
    const b = new DBuilder();
    b.storeBytes(chunks[i]!);
    if (tail) b.storeRef(tail);
    tail = b.endCell();
  }
  const b = new DBuilder();
  b.storeUint(0, 32);
  b.storeBytes(chunks[0]!);
  if (tail) b.storeRef(tail);
  return b.endCell();
}

/** `out_list$_ prev:^(OutList n) action:OutAction` of `action_send_msg#0ec3c86d` actions, first action first. */
export function outList(transfers: Transfer[]): DCell {
  let prev = EMPTY_CELL;
  for (const t of transfers) {
    const b = new DBuilder();
    b.storeRef(prev);
    b.storeUint(0x0ec3c86d, 32);
    b.storeUint(t.mode ?? 3, 8);
    b.storeRef(internalMessage(t));
    prev = b.endCell();
  }
  return prev;
}

export type WalletKind = 'v3r2' | 'v4r2' | 'v5r1' | 'highload-v3';

const CODE: Record<WalletKind, ContractName> = {
  v3r2: 'walletV3R2',
  v4r2: 'walletV4R2',
  v5r1: 'walletV5R1',
  'highload-v3': 'highloadV3',
};

/** The default subwallet id of v3/v4 wallets on workchain 0 (698983191 = 0x29a9a317). */
export const DEFAULT_SUBWALLET = 698983191;
const HIGHLOAD_TIMEOUT = 3600;

/** A wallet of the devnet: its key, initial data, address, and the external messages it signs. */
export class Wallet {
  readonly code: DCell;
  readonly data: DCell;
  readonly address: StdAddr;

  constructor(
    readonly kind: WalletKind,
    readonly key: KeyPair,
    readonly workchain: number,
    readonly subwalletId: number,
  ) {
    this.code = contractCode(CODE[kind]);
    this.data = this.initialData();
    this.address = contractAddress(workchain, this.code, this.data);
  }

  get init(): DCell {
    return stateInit(this.code, this.data);
  }

  private initialData(): DCell {
    const b = new DBuilder();
    switch (this.kind) {
      case 'v3r2':
        b.storeUint(0, 32);
        b.storeUint(this.subwalletId, 32);
        b.storeBytes(this.key.publicKey);
        break;
      case 'v4r2':
        b.storeUint(0, 32);
        b.storeUint(this.subwalletId, 32);
        b.storeBytes(this.key.publicKey);
        b.storeBit(0); // plugins
        break;
      case 'v5r1':
        b.storeBit(1); // is_signature_allowed
        b.storeUint(0, 32);
        b.storeUint(this.subwalletId, 32);
        b.storeBytes(this.key.publicKey);
        b.storeBit(0); // extensions
        break;
      case 'highload-v3':
        b.storeBytes(this.key.publicKey);
        b.storeUint(this.subwalletId, 32);
        b.storeBit(0); // old_queries
        b.storeBit(0); // queries
        b.storeUint(0, 64); // last_clean_time
        b.storeUint(HIGHLOAD_TIMEOUT, 22);
        break;
    }
    return b.endCell();
  }

  /**
   * A signed external message sending `transfers` (seqno-based wallets: at most 4, highload: up to 254 in one
   * batch). `seqno` is the wallet's current seqno, or for highload v3 the query id (unique per timeout window).
   */
  transfer(transfers: Transfer[], opts: { seqno: number; now: number; withInit?: boolean }): DCell {
    const validUntil = opts.now + 600;
    const init = opts.withInit ? this.init : null;
    switch (this.kind) {
      case 'v3r2':
      case 'v4r2': {
        if (transfers.length > 4) throw new RangeError('a v3/v4 wallet sends at most 4 messages');
        const s = new DBuilder();
        s.storeUint(this.subwalletId, 32);
        s.storeUint(validUntil, 32);
        s.storeUint(opts.seqno, 32);
        if (this.kind === 'v4r2') s.storeUint(0, 8); // op: simple send
        for (const t of transfers) {
          s.storeUint(t.mode ?? 3, 8);
          s.storeRef(internalMessage(t));
        }
        const signed = s.endCell();
        const b = new DBuilder();
        b.storeBytes(signHash(this.key, signed.hash()));
        b.storeCellContent(signed);
        return externalMessage(this.address, b.endCell(), init);
      }
      case 'v5r1': {
        if (transfers.length > 255) throw new RangeError('a v5 wallet sends at most 255 messages');
        const s = new DBuilder();
        s.storeUint(0x7369676e, 32); // prefix::signed_external
        s.storeUint(this.subwalletId, 32);
        s.storeUint(validUntil, 32);
        s.storeUint(opts.seqno, 32);
        s.storeMaybeRef(transfers.length ? outList(transfers) : null);
        s.storeBit(0); // no extended actions
        const signed = s.endCell();
        const b = new DBuilder();
        b.storeCellContent(signed);
        b.storeBytes(signHash(this.key, signed.hash()));
        return externalMessage(this.address, b.endCell(), init);
      }
      case 'highload-v3': {
        if (transfers.length === 0 || transfers.length > 254) throw new RangeError('a highload v3 batch has 1..254 messages');
        // One message goes out directly; a batch goes to the wallet itself as internal_transfer with an action list.
        let toSend: DCell;
        let mode: number;
        if (transfers.length === 1) {
          toSend = internalMessage(transfers[0]!);
          mode = transfers[0]!.mode ?? 3;
        } else {
          const body = new DBuilder();
          body.storeUint(0xae42e5a4, 32);
          body.storeUint(opts.seqno, 64);
          body.storeRef(outList(transfers));
          // The self-message only pays for its own processing; the batch is paid from the balance.
          toSend = internalMessage({ to: this.address, value: 1_000_000_000n, bounce: true, body: body.endCell() });
          mode = 3;
        }
        const inner = new DBuilder();
        inner.storeUint(this.subwalletId, 32);
        inner.storeRef(toSend);
        inner.storeUint(mode, 8);
        inner.storeUint(Math.floor(opts.seqno / 1023) % 8192, 13);
        inner.storeUint(opts.seqno % 1023, 10);
        inner.storeUint(opts.now - 1, 64);
        inner.storeUint(HIGHLOAD_TIMEOUT, 22);
        const innerCell = inner.endCell();
        const b = new DBuilder();
        b.storeRef(innerCell);
        b.storeBytes(signHash(this.key, innerCell.hash()));
        return externalMessage(this.address, b.endCell(), init);
      }
    }
  }

  /** The seqno stored in this wallet's data (highload v3 has none: 0). */
  static seqnoOf(kind: WalletKind, data: DCell): number {
    const s = data.beginParse();
    if (kind === 'highload-v3') return 0;
    if (kind === 'v5r1') s.skip(1);
    return s.loadUint(32);
  }
}
