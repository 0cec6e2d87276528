import { Boc } from '../ton/boc/reader.js';
import { Slice } from '../ton/boc/slice.js';
import { loadTransaction } from '../ton/tlb/Transaction.js';

/**
 * Fees of an emulated transaction as tonlib's `query.fees` names them (api-v2.md §3.7), in nanotons:
 * `in_fwd_fee` the import fee of the inbound external message, `storage_fee` the storage phase, `gas_fee` the
 * compute phase, `fwd_fee` the forwarding fees of the messages it sends (action phase `total_fwd_fees`).
 */
export interface SourceFees {
  in_fwd_fee: number;
  storage_fee: number;
  gas_fee: number;
  fwd_fee: number;
}

export interface EmulatedTransaction {
  fees: SourceFees;
  /** The total the account paid (`total_fees`). */
  totalFees: bigint;
  aborted: boolean;
  /** Compute phase exit code; null when it was skipped. */
  exitCode: number | null;
  gasUsed: bigint | null;
}

/**
 * Reads the fees of a transaction BOC (base64). The import fee is not a field of its own: `total_fees` is import
 * fee + storage fees + gas fees + `total_action_fees` (transaction.cpp `Transaction::commit`), so it is what
 * remains of the total.
 */
export function feesOfTransaction(b64: string): EmulatedTransaction {
  const boc = Boc.parse(Buffer.from(b64, 'base64'));
  const tx = loadTransaction(new Slice(boc, boc.roots[0]!));
  const d = tx.description;
  const storage = d.storagePh?.storageFeesCollected ?? 0n;
  const compute = d.computePh;
  const gas = compute?.type === 'vm' ? compute.gasFees : 0n;
  const actionFees = d.action?.totalActionFees ?? 0n;
  const fwd = d.action?.totalFwdFees ?? 0n;
  const total = tx.totalFees.grams;
  const inFwd = total - storage - gas - actionFees;
  return {
    fees: { in_fwd_fee: Number(inFwd > 0n ? inFwd : 0n), storage_fee: Number(storage), gas_fee: Number(gas), fwd_fee: Number(fwd) },
    totalFees: total,
    aborted: d.aborted ?? false,
    exitCode: compute?.type === 'vm' ? compute.exitCode : null,
    gasUsed: compute?.type === 'vm' ? compute.gasUsed : null,
  };
}
