import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Cell, Dictionary } from '@ton/core';
import { expect, it } from 'vitest';
import { describeFixtures, fixturesDir, readFixture } from '../../../test/helpers/fixtures.js';
import { parseBlock } from '../decode-block.js';

/**
 * `prev_blk_signatures` of McBlockExtra (block.tlb `masterchain_block_extra#cca5 … ^[ prev_blk_signatures:(HashmapE 16
 * CryptoSignaturePair) … ]`) in the real mainnet masterchain blocks, against @ton/core walking the same cells
 * (Block → extra → custom → the third-part reference) with its own dictionary reader.
 *
 * Every one of them is empty: the collator does not fill the field, so a masterchain block's signatures are not in
 * its successor; they travel in block proofs (routes/v2.ts getMasterchainBlockSignatures).
 */

/** The prev_blk_signatures node ids (hex) of a masterchain block, read with @ton/core. */
function coreSignatures(bytes: Uint8Array): string[] {
  const root = Cell.fromBoc(Buffer.from(bytes))[0]!;
  const extra = root.refs[3]!.beginParse();
  extra.loadUint(32); // block_extra tag
  extra.loadRef(); // in_msg_descr
  extra.loadRef(); // out_msg_descr
  extra.loadRef(); // account_blocks
  extra.skip(512); // rand_seed, created_by
  const mc = extra.loadRef().beginParse();
  expect(mc.loadUint(16)).toBe(0xcca5);
  mc.loadBit(); // key_block
  mc.loadMaybeRef(); // shard_hashes
  mc.loadMaybeRef(); // shard_fees root
  for (let i = 0; i < 2; i++) {
    mc.loadCoins(); // ShardFeeCreated: fees, create (CurrencyCollection each)
    mc.loadMaybeRef();
  }
  const part = mc.loadRef().beginParse();
  const sigs = part.loadDict(Dictionary.Keys.Uint(16), {
    serialize: () => {
      throw new Error('unused');
    },
    parse: (s) => s.loadBuffer(32).toString('hex'),
  });
  return sigs.values();
}

describeFixtures('McBlockExtra prev_blk_signatures on the mainnet masterchain fixture blocks', () => {
  const files = readdirSync(path.join(fixturesDir, 'blocks')).filter((f) => f.startsWith('mainnet_-1_') && f.endsWith('.boc')).sort();

  it('the decoder reads the node ids @ton/core reads: none in any block', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const bytes = readFixture(`blocks/${f}`);
      const { block } = parseBlock(bytes);
      const ours = block.extra.custom!.prevBlkSignatures.map((p) => Buffer.from(p.nodeIdShort).toString('hex'));
      expect({ f, ours }).toEqual({ f, ours: coreSignatures(bytes) });
      expect({ f, n: ours.length }).toEqual({ f, n: 0 });
    }
  });
});
