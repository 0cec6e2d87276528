import { STATE_SNAPSHOT_FORMAT, STATE_SNAPSHOT_VERSION, type SnapshotAccount, type StateSnapshot, snapshotAccountOf } from '../../ton/state-snapshot.js';
import { serializeBoc } from './cell.js';
import { type GenesisOptions, genesis } from './genesis.js';
import { genesisShardAccount } from './tlb.js';

/**
 * The devnet's zerostate as a state snapshot (shared/ton/state-snapshot.ts) at masterchain seqno 0: every genesis
 * account with the ShardAccount the zerostates hold (DevnetChain.create builds them the same way, from the same
 * seed), so the indexer has a state for accounts that no block touches. The devnet source sends it with its first
 * group; `devnet export` writes it beside the blocks.
 */
export function genesisSnapshot(opts: GenesisOptions): StateSnapshot {
  const accounts: SnapshotAccount[] = [];
  for (const a of genesis(opts).accounts) {
    const sa = genesisShardAccount({ workchain: a.workchain, hash: a.hash }, a.code, a.data, a.balance, opts.now);
    const entry = snapshotAccountOf(serializeBoc(sa));
    if (entry) accounts.push(entry);
  }
  return { format: STATE_SNAPSHOT_FORMAT, version: STATE_SNAPSHOT_VERSION, mc_seqno: 0, gen_utime: opts.now, accounts };
}
