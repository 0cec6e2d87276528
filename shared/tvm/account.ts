import { Address, Cell, beginCell, storeShardAccount, type ShardAccount } from '@ton/core';

/**
 * An account state as the TVM takes it. A source with the whole `ShardAccount` (the devnet) hands it over as it
 * is; a state known only by its fields (the store's latest state) is rebuilt into one ({@link shardAccountOf}).
 */
export interface TvmAccountState {
  /** `wc:hex`. */
  address: string;
  status: 'active' | 'uninit' | 'frozen' | 'nonexist';
  balance: bigint;
  /** Code and data of an active account, base64 BOCs; null where the provider does not have them. */
  code: string | null;
  data: string | null;
  lastTransLt: bigint;
  /** 32 bytes. */
  lastTransHash: Uint8Array;
  /** `frozen_hash` of a frozen account (32 bytes). */
  frozenHash?: Uint8Array | null;
  /** The `ShardAccount` BOC (base64) when the provider holds the account's whole state. */
  shardAccount?: string | null;
}

/** Whether get-methods can run on the state: active with code and data. */
export function isRunnable(s: TvmAccountState): s is TvmAccountState & { code: string; data: string } {
  return s.status === 'active' && s.code !== null && s.data !== null;
}

/** Cells and bits of a tree, each distinct cell counted once (`StorageUsed` of block.tlb, storage_stat.cpp). */
function storageUsed(roots: Cell[]): { cells: bigint; bits: bigint } {
  const seen = new Set<string>();
  let cells = 0n;
  let bits = 0n;
  const stack = [...roots];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const h = c.hash().toString('hex');
    if (seen.has(h)) continue;
    seen.add(h);
    cells++;
    bits += BigInt(c.bits.length);
    stack.push(...c.refs);
  }
  return { cells, bits };
}

/**
 * The state as a `ShardAccount` BOC (base64) for a transaction. A rebuilt state does not know when storage was
 * last paid: it is taken as `now`, so the emulated storage phase charges nothing (the chain would charge the
 * storage since the account's last transaction).
 */
export function shardAccountOf(s: TvmAccountState, now: number): string {
  if (s.shardAccount) return s.shardAccount;
  const lastTransactionHash = BigInt('0x' + (Buffer.from(s.lastTransHash).toString('hex') || '0'));
  let sa: ShardAccount;
  if (s.status === 'nonexist') {
    sa = { account: null, lastTransactionHash, lastTransactionLt: s.lastTransLt };
  } else {
    const state =
      s.status === 'active'
        ? { type: 'active' as const, state: { code: Cell.fromBase64(s.code ?? ''), data: Cell.fromBase64(s.data ?? '') } }
        : s.status === 'frozen'
          ? { type: 'frozen' as const, stateHash: BigInt('0x' + Buffer.from(s.frozenHash ?? new Uint8Array(32)).toString('hex')) }
          : { type: 'uninit' as const };
    const refs = state.type === 'active' ? [state.state.code, state.state.data] : [];
    sa = {
      account: {
        addr: Address.parseRaw(s.address),
        storageStats: { used: storageUsed(refs), storageExtra: null, lastPaid: now, duePayment: null },
        storage: { lastTransLt: s.lastTransLt, balance: { coins: s.balance }, state },
      },
      lastTransactionHash,
      lastTransactionLt: s.lastTransLt,
    };
  }
  return beginCell().store(storeShardAccount(sa)).endCell().toBoc().toString('base64');
}
