import { afterEach, beforeAll, expect, it } from 'vitest';
import { createLiteserverSource } from '../../shared/sources/liteserver/index.js';
import type { FullBlockRef } from '../../shared/sources/source.js';
import { describeFixtures, readFixture } from '../helpers/fixtures.js';
import type { ServedBlock } from '../helpers/liteserver/blocks.js';
import { type LoopbackLiteserver, loopbackSourceOptions, startLoopbackLiteserver } from '../helpers/liteserver/server.js';
import { type SignedChain, type TestValidator, scaffoldKeyBlock, signatureSet, signedMcBlock, subsetOf, testValidators } from '../helpers/liteserver/signatures.js';
import { patience } from '../helpers/patience.js';

/**
 * `masterchainBlockSignatures` of the liteserver source against loopback liteservers answering
 * `liteServer.getBlockProof` with a forward link from a key block whose ConfigParam 34 holds validator keys the test
 * owns (test/helpers/liteserver/signatures.ts). A liteserver whose signatures fail the check is a bad answer: the
 * pool asks the next one.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const CC = 123_456;
const ref = (b: ServedBlock): FullBlockRef => ({ id: { workchain: -1, shard: '8000000000000000', seqno: b.seqno }, rootHash: b.rootHash, fileHash: b.fileHash });

function sourceFor(...servers: LoopbackLiteserver[]) {
  const source = createLiteserverSource(loopbackSourceOptions(servers));
  cleanups.push(() => source.close());
  return source;
}

describeFixtures('liteserver source: masterchain block signatures (loopback liteservers)', () => {
  let chain: SignedChain;
  let members: TestValidator[];
  let block: ServedBlock;

  beforeAll(() => {
    const keyData = readFixture('blocks/mainnet_-1_8000000000000000_46991999_keyblock.boc');
    chain = scaffoldKeyBlock(keyData, testValidators([10n, 10n, 10n, 10n, 10n]), 3);
    const subset = subsetOf(chain, CC);
    members = subset.members;
    block = signedMcBlock(chain, keyData, { prev: chain.key, cc: CC, hash: subset.hash, label: 'signed block' });
  });

  const serve = async () => {
    const s = await startLoopbackLiteserver({ blocks: [chain.key, block] });
    cleanups.push(() => s.close());
    s.signatureSets.set(block.rootHash.toString('hex'), signatureSet(block, members, { cc: CC, hash: subsetOf(chain, CC).hash }));
    return s;
  };

  it('answers the signatures of the block, signer ids as sha256 of TL pub.ed25519', async () => {
    const s = await serve();
    const got = await sourceFor(s).masterchainBlockSignatures!(ref(chain.key), ref(block), AbortSignal.timeout(patience(10_000)));
    expect(got.signatures.map((x) => Buffer.from(x.nodeIdShort).toString('hex'))).toEqual(members.map((v) => v.nodeIdShort.toString('hex')));
  });

  it('asks the next liteserver when the first serves a signature set of another validator set', async () => {
    // The pool starts at a random liteserver (pool.ts), so each try is a fresh source over a fresh pair until one
    // asks the bad liteserver first: the chance that 30 tries never do is 2^-30.
    const asked = (s: LoopbackLiteserver) => s.requests.filter((r) => r.fn === 'getBlockProof').length;
    for (let attempt = 0; attempt < 30; attempt++) {
      const bad = await serve();
      const good = await serve();
      bad.tamperSignatures = (set) => ({ ...set, validatorSetHash: (set.validatorSetHash + 1) | 0 });
      const got = await sourceFor(bad, good).masterchainBlockSignatures!(ref(chain.key), ref(block), AbortSignal.timeout(patience(10_000)));
      expect(got.signatures).toHaveLength(members.length);
      expect(asked(good)).toBe(1);
      if (asked(bad) === 0) continue;
      expect(asked(bad)).toBe(1);
      return;
    }
    expect.unreachable('the bad liteserver was never asked first in 30 tries');
  });
});
