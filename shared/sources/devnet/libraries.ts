import { hashmapRoot } from '../../ton/tlb/Hashmap.js';
import { type DCell, DBuilder } from './cell.js';
import { contractCode } from './wallets.js';

/**
 * The devnet's public libraries: code that genesis contracts reference through a library cell (tvm.pdf §3.1.7) and
 * that a real chain would find among the masterchain's public libraries. The multisig v2 build deploys each order
 * with the order code as such a reference (multisig-contract-v2 `contracts/auto/order_code.func`), so without it
 * no order can run. The devnet does not model the publishing account; every transaction gets this library context,
 * as the emulator's `libs`: a `Hashmap 256 ^Cell` root keyed by each code's representation hash.
 */
export function publicLibraries(): DCell {
  const codes = [contractCode('multisigV2Order')];
  const entries = codes.map((c) => ({ key: c.hash(), value: c })).sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
  return hashmapRoot(new DBuilder(), entries, 256, (v, vb) => (vb as DBuilder).storeRef(v)).cell;
}
