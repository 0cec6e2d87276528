import { expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../test/helpers/fixtures.js';
import { Boc } from './boc/reader.js';
import { keyBlockConfig, masterchainValidators, validatorSetHashShort } from './block-signatures.js';

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
