import { afterEach, beforeAll, expect, it } from 'vitest';
import { createLiteserverSource } from '../../shared/sources/liteserver/index.js';
import type { FullBlockRef } from '../../shared/sources/source.js';
import { verifyShardBlockProof } from '../../shared/ton/shard-block-proof.js';
import { describeFixtures } from '../helpers/fixtures.js';
import { type ServedBlock, blockKey, headerProof } from '../helpers/liteserver/blocks.js';
import { type ChainA, buildChainA } from '../helpers/liteserver/chain.js';
import { backLink, prevBlocksProof, stateOf } from '../helpers/liteserver/mc-state.js';
import { LoopbackLiteserver, loopbackSourceOptions, startLoopbackLiteserver } from '../helpers/liteserver/server.js';
import { patience } from '../helpers/patience.js';

/**
 * `shardBlockProof` of the liteserver source against the loopback liteserver, which answers
 * `liteServer.getShardBlockProof` with Merkle proofs it builds with @ton/core over the blocks it serves (chain A of
 * test/helpers/liteserver/chain.ts: real fixture blocks R1, R2 and scaffold blocks over real cells). What a correct
 * answer is comes from chain A's documented structure (which masterchain block first commits which top block), not
 * from the code under test.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function sourceFor(s: LoopbackLiteserver) {
  const source = createLiteserverSource(loopbackSourceOptions([s]));
  cleanups.push(() => source.close());
  return source;
}

const ref = (b: ServedBlock): FullBlockRef => ({ id: { workchain: b.workchain, shard: b.shard.toString(16).toUpperCase(), seqno: b.seqno }, rootHash: b.rootHash, fileHash: b.fileHash });
const key = (r: FullBlockRef) => `${r.id.workchain}:${r.id.shard}:${r.id.seqno}:${Buffer.from(r.rootHash).toString('hex')}`;

describeFixtures('liteserver source: shard block proofs (loopback liteserver)', () => {
  let chain: ChainA;
  beforeAll(() => {
    chain = buildChainA();
  });

  const proveWith = async (b: ServedBlock) => {
    const s = await startLoopbackLiteserver({ blocks: chain.blocks });
    cleanups.push(() => s.close());
    return { s, proof: await sourceFor(s).shardBlockProof!(ref(b), AbortSignal.timeout(patience(10_000))) };
  };

  it('proves a top block from the masterchain block that first commits it (one link)', async () => {
    // S1 is the first masterchain block whose shard hashes name R1 (chain A).
    const { proof } = await proveWith(chain.r1);
    expect(key(proof.mc)).toBe(key(ref(chain.index[1]!.mc)));
    expect(proof.links.map((l) => key(l.block))).toEqual([key(ref(chain.r1))]);
  });

  it('proves a block below a split through the top block that names it as its parent (two links)', async () => {
    const { Ya, X2 } = chain.named;
    // X2 is never a top block: S2 names Ya (after_split), whose prev is X2.
    const { proof } = await proveWith(X2);
    expect(key(proof.mc)).toBe(key(ref(chain.index[2]!.mc)));
    expect(proof.links.map((l) => key(l.block))).toEqual([key(ref(Ya)), key(ref(X2))]);
  });

  it('proves the left parent of a merge through the merged block', async () => {
    const { Ya2, Z } = chain.named;
    const { proof } = await proveWith(Ya2);
    expect(key(proof.mc)).toBe(key(ref(chain.index[3]!.mc)));
    expect(proof.links.map((l) => key(l.block))).toEqual([key(ref(Z)), key(ref(Ya2))]);
  });

  it('refuses a proof that does not hash to the block it claims, from every liteserver asked', async () => {
    const s = await startLoopbackLiteserver({ blocks: chain.blocks });
    cleanups.push(() => s.close());
    // A real Merkle proof, of another block (R2's header): a valid proof whose hash is not S1's.
    const forged = headerProof(chain.r2);
    s.tamperProof = () => forged;
    await expect(sourceFor(s).shardBlockProof!(ref(chain.r1), AbortSignal.timeout(patience(10_000)))).rejects.toMatchObject({
      code: 'LITESERVER_BAD_BLOCK',
      message: expect.stringContaining(`the proof is of block ${chain.r2.rootHash.toString('hex')}`),
    });
    expect(s.requests.filter((r) => r.fn === 'getShardBlockProof' && r.block === blockKey(chain.r1)).length).toBeGreaterThanOrEqual(3);
  });
});

describeFixtures('verifyShardBlockProof', () => {
  it('refuses a chain that ends at another block than the asked one', async () => {
    const chain = buildChainA();
    const s = await startLoopbackLiteserver({ blocks: chain.blocks });
    cleanups.push(() => s.close());
    const proof = await sourceFor(s).shardBlockProof!(ref(chain.named.X2), AbortSignal.timeout(patience(10_000)));
    const toId = (r: FullBlockRef) => ({ workchain: r.id.workchain, shard: BigInt('0x' + r.id.shard), seqno: r.id.seqno, rootHash: r.rootHash, fileHash: r.fileHash });
    const links = proof.links.map((l) => ({ id: toId(l.block), proof: l.proof }));
    expect(() => verifyShardBlockProof(toId(proof.mc), links, toId(ref(chain.named.X2)))).not.toThrow();
    // Only the first link: it proves Ya, not X2.
    expect(() => verifyShardBlockProof(toId(proof.mc), links.slice(0, 1), toId(ref(chain.named.X2)))).toThrow(/ends at/);
    // X2's id where the masterchain proof names Ya: the masterchain block has split X2's shard.
    expect(() => verifyShardBlockProof(toId(proof.mc), [{ ...links[0]!, id: links[1]!.id }], toId(ref(chain.named.X2)))).toThrow(/split in the masterchain block/);
  });
});

/*
 * `masterchainBackProof` of the liteserver source: `liteServer.getBlockProof` from a newer masterchain block back to
 * an older one, answered by the loopback liteserver with one `liteServer.blockLinkBack` whose proofs it builds with
 * @ton/core over chain A's masterchain blocks and their states (test/helpers/liteserver/mc-state.ts).
 */
describeFixtures('liteserver source: masterchain back links (loopback liteservers)', () => {
  let chain: ChainA;
  beforeAll(() => {
    chain = buildChainA();
  });

  it('answers the link from a newer masterchain block back to an older one, as served', async () => {
    const [s1, s5] = [chain.index[1]!.mc, chain.index[5]!.mc];
    const s = await startLoopbackLiteserver({ blocks: chain.blocks });
    cleanups.push(() => s.close());
    const proof = await sourceFor(s).masterchainBackProof!(ref(s5), ref(s1), AbortSignal.timeout(patience(10_000)));
    const served = backLink(s5, s1);
    expect(proof.links).toHaveLength(1);
    const [l] = proof.links;
    expect([key(l!.from), key(l!.to), l!.toKeyBlock]).toEqual([key(ref(s5)), key(ref(s1)), false]);
    expect([Buffer.from(l!.destProof), Buffer.from(l!.proof), Buffer.from(l!.stateProof)]).toEqual([served.destProof, served.proof, served.stateProof]);
  });

  it('asks the next liteserver when the first serves a link that fails the checks', async () => {
    const [s1, s4, s5] = [chain.index[1]!.mc, chain.index[4]!.mc, chain.index[5]!.mc];
    // The pool starts at a random liteserver (pool.ts), so each try is a fresh source over a fresh pair until one
    // asks the bad liteserver first: the chance that 30 tries never do is 2^-30.
    for (let attempt = 0; attempt < 30; attempt++) {
      const bad = await startLoopbackLiteserver({ blocks: chain.blocks });
      const good = await startLoopbackLiteserver({ blocks: chain.blocks });
      cleanups.push(() => bad.close(), () => good.close());
      // S4's state where S5's belongs: a real Merkle proof of a state that also lists S1, but not the state S5 names.
      bad.tamperBackProof = (t) => ({ ...t, links: [{ ...t.links[0]!, stateProof: prevBlocksProof(stateOf(s4)) }] });
      const source = createLiteserverSource(loopbackSourceOptions([bad, good]));
      cleanups.push(() => source.close());
      const proof = await source.masterchainBackProof!(ref(s5), ref(s1), AbortSignal.timeout(patience(10_000)));
      expect(Buffer.from(proof.links[0]!.stateProof)).toEqual(backLink(s5, s1).stateProof);
      expect(good.count('getBlockProof', s1)).toBe(1);
      if (bad.count('getBlockProof', s1) === 0) continue;
      expect(bad.count('getBlockProof', s1)).toBe(1);
      return;
    }
    expect.unreachable('the bad liteserver was never asked first in 30 tries');
  });
});
