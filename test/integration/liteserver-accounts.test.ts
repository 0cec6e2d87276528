import { Cell } from '@ton/core';
import { afterEach, expect, it } from 'vitest';
import { BlockIntegrityError, createLiteserverSource } from '../../shared/sources/liteserver/index.js';
import { describeFixtures, readFixture } from '../helpers/fixtures.js';
import { type LoopbackLiteserver, loopbackGlobalConfig, startLoopbackLiteserver } from '../helpers/liteserver/server.js';
import { patience } from '../helpers/patience.js';

/*
 * The liteserver source's account-state port (BlockSource.accountStatesAt) over the real protocol: ton-lite-client
 * asks loopback liteservers (test/helpers/liteserver, an independent lite_api.tl implementation) for
 * `liteServer.getAccountState`, and they replay the recorded mainnet answer of MANIFEST.md `states/` (ton-core's
 * account proof). The source checks every answer's proofs against the block root hash it was given: an answer that
 * proves what it is asked passes, one that does not is refused like a bad block (another liteserver is asked; after
 * too many, BlockIntegrityError).
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describeFixtures('liteserver account states, proof-checked, over the real protocol', () => {
  const proof = readFixture('states/account_proof_toncore.boc');
  const [blockProof, stateProof] = Cell.fromBoc(proof);
  const block = blockProof!.refs[0]!;
  const info = block.refs[0]!.beginParse();
  info.skip(32 + 32 + 8 + 8);
  const seqno = info.loadUint(32);
  info.skip(32 + 2);
  const pfx = info.loadUint(6);
  const workchain = info.loadInt(32);
  const prefix = info.loadUintBig(64);
  const shard = prefix | (1n << BigInt(63 - pfx));
  const rootHash = block.hash(0);
  // The recording does not state the block's file hash; the loopback server echoes whatever id it is asked for.
  const blockRef = { id: { workchain, shard: shard.toString(16).toUpperCase(), seqno }, rootHash, fileHash: new Uint8Array(32) };

  /** The account the recorded state proof carries: the key of its one unpruned ShardAccounts path. */
  function provenKey(): Buffer {
    let cell = stateProof!.refs[0]!.refs[1]!.beginParse().loadRef();
    const bits: boolean[] = [];
    const label = (s: ReturnType<Cell['beginParse']>, m: number): boolean[] => {
      const lenBits = Math.ceil(Math.log2(m + 1));
      if (!s.loadBit()) {
        let n = 0;
        while (s.loadBit()) n++;
        return Array.from({ length: n }, () => s.loadBit());
      }
      if (!s.loadBit()) return Array.from({ length: s.loadUint(lenBits) }, () => s.loadBit());
      const v = s.loadBit();
      return new Array<boolean>(s.loadUint(lenBits)).fill(v);
    };
    for (;;) {
      bits.push(...label(cell.beginParse(true), 256 - bits.length));
      if (bits.length === 256) break;
      const i = cell.refs[0]!.isExotic ? 1 : 0;
      bits.push(i === 1);
      cell = cell.refs[i]!;
    }
    const key = Buffer.alloc(32);
    bits.forEach((b, i) => b && (key[i >> 3]! |= 0x80 >> (i & 7)));
    return key;
  }

  async function setup(states: (account: string) => { proof: Uint8Array; state: Uint8Array }, servers = 2) {
    const list: LoopbackLiteserver[] = [];
    for (let i = 0; i < servers; i++) {
      const s = await startLoopbackLiteserver({});
      s.accountStates.set(Buffer.from(rootHash).toString('hex'), states);
      cleanups.push(() => s.close());
      list.push(s);
    }
    const source = createLiteserverSource({
      network: 'mainnet',
      globalConfig: loopbackGlobalConfig(...list),
      pollIntervalMs: 50,
      backoffInitialMs: 50,
      backoffMaxMs: 200,
      queryTimeoutMs: patience(3_000),
      connectTimeoutMs: patience(1_000),
      maxIntegrityFailures: 3,
    });
    cleanups.push(() => source.close());
    return { source, servers: list };
  }

  it('an account the recorded proof shows absent: proven, and answered as absent', async () => {
    const key = provenKey();
    // The last key bit flipped: the path is the proven one down to the leaf, whose label then differs.
    const absent = Buffer.from(key);
    absent[31]! ^= 0x01;
    const { source, servers } = await setup(() => ({ proof, state: new Uint8Array(0) }));
    const got = await source.accountStatesAt!(blockRef, [`${workchain}:${absent.toString('hex')}`], AbortSignal.timeout(patience(20_000)));
    expect(got).toEqual([]);
    expect(servers.reduce((n, s) => n + s.count('getAccountState'), 0)).toBe(1);
  });

  it('answers that do not prove the account are refused: a state the proof does not name, no state for a present account, another block', async () => {
    const key = provenKey();
    const present = `${workchain}:${key.toString('hex')}`;
    // The proof shows the account present; the recording has no state for it, and another account's state is not it.
    const other = readFixture('states/mainnet_account_state_tonutils_EQDEGeK4.boc');
    for (const state of [new Uint8Array(0), other]) {
      const { source, servers } = await setup(() => ({ proof, state }));
      const err = await source.accountStatesAt!(blockRef, [present], AbortSignal.timeout(patience(20_000))).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BlockIntegrityError);
      expect((err as Error).message).toMatch(state.length === 0 ? /serves no state/ : /state hashes to/);
      // Both liteservers were asked (rotation after each refused answer), three times in all.
      expect(servers.reduce((n, s) => n + s.count('getAccountState'), 0)).toBe(3);
      expect(servers.every((s) => s.count('getAccountState') > 0)).toBe(true);
    }
    // Asked at another block (another root hash) the same recorded proof does not hold.
    const { source, servers } = await setup(() => ({ proof, state: new Uint8Array(0) }));
    const wrongRoot = Buffer.from(rootHash);
    wrongRoot[5]! ^= 0x10;
    for (const s of servers) s.accountStates.set(wrongRoot.toString('hex'), () => ({ proof, state: new Uint8Array(0) }));
    const err = await source.accountStatesAt!({ ...blockRef, rootHash: wrongRoot }, [present], AbortSignal.timeout(patience(20_000))).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BlockIntegrityError);
    expect((err as Error).message).toMatch(/block proof is for block/);
  });
});
