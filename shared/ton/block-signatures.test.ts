import { expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../test/helpers/fixtures.js';
import { Boc } from './boc/reader.js';
import type { ServedBlock } from '../../test/helpers/liteserver/blocks.js';
import { headerProof } from '../../test/helpers/liteserver/blocks.js';
import { keyConfigProof, scaffoldKeyBlock, signatureSet, signedMcBlock, subsetOf, testValidators } from '../../test/helpers/liteserver/signatures.js';
import type { PartialBlockProof } from './shard-block-proof.js';
import { type ForwardLink, keyBlockConfig, masterchainValidators, validatorSetHashShort, verifyMasterchainBlockSignatures } from './block-signatures.js';
import { BlockProofError } from './shard-block-proof.js';

/*
 * The masterchain validator subset on real mainnet data: key block 46991999 (MANIFEST.md, fixture 3); its header's
 * gen_validator_list_hash_short 4143742061 and catchain seqno 682531 are stated upstream (ton_lib block_info.rs
 * tests). It is the block that switches validator sets (its ConfigParam 34 starts at utime_since 1745112840, one
 * second before it), so it was signed by the set it moves to ConfigParam 32 (prev_validators), the previous key
 * block's ConfigParam 34. The subset computed from that and ConfigParam 28 (shuffle_mc_validators set) must hash to
 * the header's value: the PRNG shuffle, the subset size and the hash's TL all have to be right for that.
 */
describeFixtures('masterchain validator subset (real key block)', () => {
  const boc = Boc.parse(readFixture('blocks/mainnet_-1_8000000000000000_46991999_keyblock.boc'));
  boc.hashAll();
  const { validators, catchain } = keyBlockConfig(boc, boc.root, 32);

  it('computes the subset whose short hash the block header states', () => {
    expect(catchain.shuffleMcValidators).toBe(true);
    expect(validators.main).toBeLessThan(validators.total);
    const subset = masterchainValidators(validators, catchain, 682531);
    expect(subset).toHaveLength(validators.main);
    expect(validatorSetHashShort(682531, subset)).toBe(4143742061);
  });

  it('a different catchain seqno, no shuffle or the new set gives another hash', () => {
    const next = keyBlockConfig(boc, boc.root, 34);
    expect(next.validators.utimeSince).toBe(1745112840);
    expect(validatorSetHashShort(682531, masterchainValidators(next.validators, next.catchain, 682531))).not.toBe(4143742061);
    expect(validatorSetHashShort(682532, masterchainValidators(validators, catchain, 682532))).not.toBe(4143742061);
    expect(validatorSetHashShort(682531, masterchainValidators(validators, { ...catchain, shuffleMcValidators: false }, 682531))).not.toBe(4143742061);
  });
});

/*
 * The chain checks on links built by the loopback liteserver's helpers (test/helpers/liteserver/signatures.ts: the
 * real key block with test validator keys in ConfigParam 34, a scaffold block they sign).
 */
describeFixtures('verifyMasterchainBlockSignatures', () => {
  const keyData = readFixture('blocks/mainnet_-1_8000000000000000_46991999_keyblock.boc');
  const chain = scaffoldKeyBlock(keyData, testValidators([5n, 5n, 5n]), 3);
  const CC = 42;
  const subset = subsetOf(chain, CC);
  const block = signedMcBlock(chain, keyData, { prev: chain.key, cc: CC, hash: subset.hash, label: 'signed' });
  const other = signedMcBlock(chain, keyData, { prev: block, cc: CC, hash: subset.hash, label: 'next' });
  const id = (b: ServedBlock) => ({ workchain: -1, shard: 1n << 63n, seqno: b.seqno, rootHash: b.rootHash, fileHash: b.fileHash });
  const set = signatureSet(block, subset.members, { cc: CC, hash: subset.hash });
  const link = (over: Partial<ForwardLink> = {}): ForwardLink => ({
    toKeyBlock: false,
    from: id(chain.key),
    to: id(block),
    destProof: headerProof(block),
    configProof: keyConfigProof(chain.key),
    signatures: set,
    ...over,
  });
  const proof = (steps: PartialBlockProof<ForwardLink>['steps'], over: Partial<PartialBlockProof<ForwardLink>> = {}): PartialBlockProof<ForwardLink> => ({ complete: true, from: id(chain.key), to: id(block), steps, ...over });
  const refused = (p: PartialBlockProof<ForwardLink>, pattern: RegExp) => {
    let err: unknown;
    try {
      verifyMasterchainBlockSignatures(id(chain.key), id(block), p);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BlockProofError);
    expect((err as Error).message).toMatch(pattern);
  };

  it('returns the signatures of a valid link', () => {
    const got = verifyMasterchainBlockSignatures(id(chain.key), id(block), proof([{ forward: link() }]));
    expect(got.map((s) => Buffer.from(s.nodeIdShort).toString('hex'))).toEqual(subset.members.map((v) => v.nodeIdShort.toString('hex')));
  });

  it('refuses chains that do not go from the anchor to the block', () => {
    refused(proof([{ forward: link() }], { complete: false }), /incomplete/);
    refused(proof([{ backward: true }]), /link 0 is a backward link/);
    refused(proof([]), /no links/);
    refused(proof([{ forward: link() }], { from: id(block) }), /the proof starts at/);
    refused(proof([{ forward: link({ from: id(block), to: id(other) }) }]), /link 0 starts at/);
  });

  it('refuses proofs of other blocks and a wrong to_key_block', () => {
    refused(proof([{ forward: link({ destProof: headerProof(other) }) }]), new RegExp(`the proof is of block ${other.rootHash.toString('hex')}, not ${block.rootHash.toString('hex')}`));
    refused(proof([{ forward: link({ configProof: headerProof(block) }) }]), new RegExp(`the proof is of block ${block.rootHash.toString('hex')}, not ${chain.key.rootHash.toString('hex')}`));
    refused(proof([{ forward: link({ toKeyBlock: true }) }]), /to_key_block is true, the header says false/);
    // A key block's proof that prunes its config proves nothing about the validators.
    refused(proof([{ forward: link({ configProof: headerProof(chain.key) }) }]), /BlockExtra is pruned from the proof/);
  });

  it('refuses a signature set of another catchain or validator set', () => {
    refused(proof([{ forward: link({ signatures: { ...set, catchainSeqno: CC + 1 } }) }]), /hashes to \d+, the block header says/);
    refused(proof([{ forward: link({ signatures: { ...set, validatorSetHash: set.validatorSetHash + 1 } }) }]), /the signature set names validator set hash/);
  });
});
