import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChainMeta, SealedBlock } from './chain.js';
import { type DCell, parseBocRoot, serializeBoc } from './cell.js';
import type { TrafficState } from './traffic.js';
import { STATE_SNAPSHOT_FILE, type StateSnapshot, serializeStateSnapshot } from '../../ton/state-snapshot.js';

/**
 * The devnet's data directory:
 *
 *   chain.json            what the chain is (seed, network id, genesis time) and where it is (the last sealed
 *                         masterchain seqno, the chain metadata, the traffic generator's state); replaced
 *                         atomically after each block pair is written, so it never names a block that is not on disk
 *   blocks/*.boc          every sealed block, `devnet_<wc>_<shard>_<seqno>.boc`; the directory is also a valid
 *                         `--source files:DIR`
 *   blocks/state-snapshot.json
 *                         the genesis accounts as a state snapshot (shared/ton/state-snapshot.ts) at seqno 0
 *   state/{mc,wc}_N.boc   full shard states at seqno N, named by `state/snapshot.json` (the zerostates at first)
 *
 * On restart the states are brought from the snapshot to the head by applying each later block's Merkle update,
 * which also proves every stored update against the states it claims to connect.
 */
export interface ChainFile {
  version: 1;
  seed: string;
  globalId: number;
  genesisUtime: number;
  /** Genesis size (basechain wallets per kind): with the seed, it names every actor. */
  walletsPerKind: number;
  /** Last sealed masterchain seqno (0: genesis only). */
  head: number;
  meta: ChainMeta;
  traffic: TrafficState;
}

export function blockFileName(b: { workchain: number; shard: bigint; seqno: number }): string {
  return `devnet_${b.workchain}_${b.shard.toString(16).toUpperCase().padStart(16, '0')}_${b.seqno}.boc`;
}

export class DevnetStore {
  readonly blocksDir: string;
  private readonly stateDir: string;

  constructor(readonly dir: string) {
    this.blocksDir = path.join(dir, 'blocks');
    this.stateDir = path.join(dir, 'state');
  }

  async init(): Promise<void> {
    await mkdir(this.blocksDir, { recursive: true });
    await mkdir(this.stateDir, { recursive: true });
  }

  async readChain(): Promise<ChainFile | null> {
    try {
      return JSON.parse(await readFile(path.join(this.dir, 'chain.json'), 'utf8')) as ChainFile;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async writeChain(c: ChainFile): Promise<void> {
    await atomicWrite(path.join(this.dir, 'chain.json'), JSON.stringify(c, null, 1));
  }

  async writeBlock(b: SealedBlock): Promise<void> {
    await atomicWrite(path.join(this.blocksDir, blockFileName(b)), b.data);
  }

  /** The state snapshot beside the blocks (`blocks/state-snapshot.json`). */
  async writeStateSnapshot(s: StateSnapshot): Promise<void> {
    await atomicWrite(path.join(this.blocksDir, STATE_SNAPSHOT_FILE), serializeStateSnapshot(s));
  }

  async readBlock(b: { workchain: number; shard: bigint; seqno: number }): Promise<Uint8Array> {
    return readFile(path.join(this.blocksDir, blockFileName(b)));
  }

  /**
   * Writes full states under names that carry their seqno, then points `snapshot.json` at them, then removes the
   * previous pair: a crash at any moment leaves one complete snapshot.
   */
  async writeSnapshot(seqno: number, states: { mc: DCell; wc: DCell }): Promise<void> {
    const previous = await this.snapshotSeqno();
    await atomicWrite(path.join(this.stateDir, `mc_${seqno}.boc`), serializeBoc(states.mc));
    await atomicWrite(path.join(this.stateDir, `wc_${seqno}.boc`), serializeBoc(states.wc));
    await atomicWrite(path.join(this.stateDir, 'snapshot.json'), JSON.stringify({ seqno, mc: states.mc.hashHex(), wc: states.wc.hashHex() }));
    if (previous !== null && previous !== seqno) {
      await rm(path.join(this.stateDir, `mc_${previous}.boc`), { force: true });
      await rm(path.join(this.stateDir, `wc_${previous}.boc`), { force: true });
    }
  }

  private async snapshotSeqno(): Promise<number | null> {
    try {
      return (JSON.parse(await readFile(path.join(this.stateDir, 'snapshot.json'), 'utf8')) as { seqno: number }).seqno;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  async readSnapshot(): Promise<{ seqno: number; mc: DCell; wc: DCell }> {
    const meta = JSON.parse(await readFile(path.join(this.stateDir, 'snapshot.json'), 'utf8')) as { seqno: number; mc: string; wc: string };
    const mc = parseBocRoot(await readFile(path.join(this.stateDir, `mc_${meta.seqno}.boc`)));
    const wc = parseBocRoot(await readFile(path.join(this.stateDir, `wc_${meta.seqno}.boc`)));
    if (mc.hashHex() !== meta.mc || wc.hashHex() !== meta.wc) throw new Error(`devnet: state snapshot ${meta.seqno} in ${this.stateDir} does not match its record`);
    return { seqno: meta.seqno, mc, wc };
  }
}

async function atomicWrite(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, file);
}
