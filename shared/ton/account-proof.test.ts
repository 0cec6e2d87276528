import { Cell, type Slice } from '@ton/core';
import { expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../test/helpers/fixtures.js';
import { AccountProofError, type ProvenShardAccount, verifyAccountState, verifyShardAccountProof } from './account-proof.js';

/*
 * The liteserver account-state proof check on real recorded data (MANIFEST.md `states/`): the mainnet
 * `liteServer.accountState` proof of ton-core's test vectors (block proof + state proof), and the account state pair
 * (a whole Account and its Merkle proof). What the proof covers is read independently here with @ton/core: the block
 * id from the proven BlockInfo, the account from the one unpruned path through ShardAccounts.
 */

function invalid(fn: () => unknown, pattern: RegExp): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(AccountProofError);
  expect((err as AccountProofError).code).toBe('ACCOUNT_PROOF_INVALID');
  expect((err as AccountProofError).retryable).toBe(false);
  expect((err as Error).message).toMatch(pattern);
}

/** HmLabel (block.tlb hml_short$0, hml_long$10, hml_same$11) read with @ton/core: the label's bits. */
function readLabel(s: Slice, m: number): boolean[] {
  const lenBits = Math.ceil(Math.log2(m + 1));
  if (!s.loadBit()) {
    let n = 0;
    while (s.loadBit()) n++;
    return Array.from({ length: n }, () => s.loadBit());
  }
  if (!s.loadBit()) {
    const n = s.loadUint(lenBits);
    return Array.from({ length: n }, () => s.loadBit());
  }
  const v = s.loadBit();
  return new Array<boolean>(s.loadUint(lenBits)).fill(v);
}

/** Follows the only unpruned path of a proven `HashmapAugE 256`: the key it proves and the leaf's slice. */
function provenLeaf(accounts: Cell): { key: Buffer; leaf: Slice; cell: Cell } {
  const s = accounts.beginParse();
  expect(s.loadBit()).toBe(true);
  let cell = s.loadRef();
  const bits: boolean[] = [];
  for (;;) {
    const node = cell.beginParse(true);
    bits.push(...readLabel(node, 256 - bits.length));
    if (bits.length === 256) {
      const key = Buffer.alloc(32);
      bits.forEach((b, i) => b && (key[i >> 3]! |= 0x80 >> (i & 7)));
      return { key, leaf: node, cell };
    }
    const open = cell.refs.slice(0, 2).map((r, i) => ({ r, i })).filter((x) => !x.r.isExotic);
    expect(open).toHaveLength(1);
    bits.push(open[0]!.i === 1);
    cell = open[0]!.r;
  }
}

describeFixtures('liteServer.accountState proof check on recorded mainnet data', () => {
  const proof = readFixture('states/account_proof_toncore.boc');
  const [blockProof, stateProof] = Cell.fromBoc(proof);
  const block = blockProof!.refs[0]!;
  // BlockInfo: tag, version, 8 flag bits, flags, seq_no, vert_seq_no, shard_ident$00 pfx_bits workchain prefix.
  const info = block.refs[0]!.beginParse();
  info.skip(32 + 32 + 8 + 8);
  const seqno = info.loadUint(32);
  info.skip(32 + 2);
  const pfx = info.loadUint(6);
  const workchain = info.loadInt(32);
  const prefix = info.loadUintBig(64);
  const id = { workchain, shard: prefix | (1n << BigInt(63 - pfx)), seqno, rootHash: block.hash(0) };
  // ShardState: the accounts dictionary is its second reference.
  const state = stateProof!.refs[0]!;
  const { key, leaf, cell: leafCell } = provenLeaf(state.refs[1]!);
  // The leaf: DepthBalanceInfo (split_depth, CurrencyCollection), then ShardAccount.
  leaf.skip(5);
  leaf.loadCoins();
  leaf.loadMaybeRef();
  const accountRef = leaf.loadRef();
  const lastTransHash = leaf.loadBuffer(32);
  const lastTransLt = leaf.loadUintBig(64);
  const address = { workchain, hash: key };

  it('accepts the proof for its block and account: the ShardAccount it proves', () => {
    const proven = verifyShardAccountProof(id, address, proof);
    expect(proven.found).toBe(true);
    if (!proven.found) return;
    expect(Buffer.from(proven.accountHash).equals(accountRef.hash(0))).toBe(true);
    expect(Buffer.from(proven.lastTransHash).equals(lastTransHash)).toBe(true);
    expect(proven.lastTransLt).toBe(lastTransLt);
    // The state it is checked against is the block's (state_update new side, which the state proof hashes to).
    expect(Buffer.from(proven.stateHash).equals(state.hash(0))).toBe(true);
  });

  it('refuses it for another block, a tampered proof, and an account it does not cover', () => {
    const other = Buffer.from(id.rootHash);
    other[0]! ^= 1;
    invalid(() => verifyShardAccountProof({ ...id, rootHash: other }, address, proof), /block proof is for block/);
    invalid(() => verifyShardAccountProof({ ...id, seqno: id.seqno + 1 }, address, proof), /header names block/);
    // One byte of the proven ShardAccount changed (its last_trans_lt): the Merkle proof's hash no longer holds.
    const tampered = Buffer.from(proof);
    const leafData = leafCell.bits.subbuffer(0, Math.floor(leafCell.bits.length / 8) * 8)!;
    const at = tampered.indexOf(leafData);
    expect(at).toBeGreaterThan(0);
    tampered[at + leafData.length - 2]! ^= 0x01;
    invalid(() => verifyShardAccountProof(id, address, tampered), /not a valid bag of cells/);
    // The first key bit flipped: its path leaves the proven one at the root fork, into a pruned branch.
    const elsewhere = Buffer.from(key);
    elsewhere[0]! ^= 0x80;
    invalid(() => verifyShardAccountProof(id, { workchain, hash: elsewhere }, proof), /does not cover/);
    // Only the state proof: two roots are required.
    invalid(() => verifyShardAccountProof(id, address, Buffer.from(stateProof!.toBoc())), /expected 2/);
  });

  it('checks the served Account against the proven hash (the whole state and its Merkle proof)', () => {
    const full = readFixture('states/account_state_full_toncore.boc');
    const pruned = Cell.fromBoc(readFixture('states/account_state_pruned_proof_toncore.boc'))[0]!;
    const proven: ProvenShardAccount = { found: true, accountHash: pruned.refs[0]!.hash(0), lastTransHash: Buffer.alloc(32), lastTransLt: 0n, stateHash: Buffer.alloc(32) };
    expect(() => verifyAccountState(proven, full)).not.toThrow();
    // One bit of the Account cell's data changed: another state.
    const root = Cell.fromBoc(full)[0]!;
    const flipped = Buffer.from(full);
    const rootData = root.bits.subbuffer(0, Math.floor(root.bits.length / 8) * 8)!;
    const at = flipped.indexOf(rootData);
    expect(at).toBeGreaterThan(0);
    flipped[at + rootData.length - 1]! ^= 0x01;
    invalid(() => verifyAccountState(proven, flipped), /state hashes to/);
    invalid(() => verifyAccountState(proven, new Uint8Array(0)), /serves no state/);
    invalid(() => verifyAccountState({ found: false, stateHash: Buffer.alloc(32) }, full), /shows the account absent/);
    expect(() => verifyAccountState({ found: false, stateHash: Buffer.alloc(32) }, new Uint8Array(0))).not.toThrow();
  });
});
