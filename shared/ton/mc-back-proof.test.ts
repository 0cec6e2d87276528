import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../test/helpers/fixtures.js';
import { type ServedBlock, extRefOf, scaffoldMcBlock } from '../../test/helpers/liteserver/blocks.js';
import { BASE_MC_FIXTURE, MC_A, buildChainA } from '../../test/helpers/liteserver/chain.js';
import { type OldMcBlock, backLink, oldMcBlockOf, prevBlocksProof, scaffoldMcState, stateOf, stateUpdateTo } from '../../test/helpers/liteserver/mc-state.js';
import { MAINNET_ZERO_STATE } from '../../test/helpers/liteserver/server.js';
import { Boc } from './boc/reader.js';
import { Slice } from './boc/slice.js';
import { type BackLink, verifyBackLink, verifyMasterchainBackProof } from './mc-back-proof.js';
import type { PartialBlockProof } from './shard-block-proof.js';
import { BlockProofError, type ProofBlockIdExt } from './shard-block-proof.js';
import { PRUNED } from './tlb/Hashmap.js';
import { loadMcStateExtraHead } from './tlb/McStateExtra.js';
import { lookupOldMcBlock } from './tlb/OldMcBlocksInfo.js';
import { loadShardStateHead } from './tlb/ShardState.js';

const MC = 1n << 63n;
const b64 = (s: string) => new Uint8Array(Buffer.from(s, 'base64'));

/*
 * A real mainnet back link as tonlib checked and ton-http-api printed it: `getShardBlockProof` of masterchain block
 * 30497145 answered from masterchain block 30517698 (the `mc_proof[0]` of the sample response in GetBlock's public
 * documentation of `/getShardBlockProof`, github.com/wetryingtodorock/getblock-docs,
 * en/rpc-service/ton/json-rpc/ton_getShardBlockProof.md). The ids of both ends are that response's `from` and `mc_id`.
 */
const REAL_FROM: ProofBlockIdExt = { workchain: -1, shard: MC, seqno: 30517698, rootHash: b64('SV/NmAOmNTzjkuJO9uyroF7jv0KEiJyNFd34Ye5AZsY='), fileHash: b64('yhFiArzGTVG04DNU0L+usdfOCwmpEFCjvouHKUluZ0I=') };
const REAL_TO: ProofBlockIdExt = { workchain: -1, shard: MC, seqno: 30497145, rootHash: b64('2a8ZfAc+YN+hWDxtnlj+lsmPxDljA1ur8XVvL52UB2s='), fileHash: b64('t81TFPL17RLgqteZsYf64yY2EX18p/V5f3Z9itK1DrA=') };
const REAL_DEST_PROOF =
    'te6ccgECBwEAAUcACUYD2a8ZfAc+YN+hWDxtnlj+lsmPxDljA1ur8XVvL52UB2sAFgEkEBHvVar///8RAgMEBQGgm8ephwAAAAAEAQHRWXkAAAABAP////8AAAAAAAAAAGSRt6IAACMj2TWowAAAIyPZNajEIo3AWgAG3EgB0Vl1AdE5dMQAAAADAAAAAAAAAC4GKEgB' +
    'AcbfDt4EasCGjPemonECEdBmFZHcjpVWsJUjbC3Tox0vAAMoSAEBZBsNxHAgiuaVY6i23SfCghiMAlUqoDQC0/YeayFULc4AFShIAQEU7xkWEeDam3oBjCjcCaf89NzbXoY2u5ZHYxRItDQGrwAHAJgAACMj2SZmhAHRWXiLzgJ0H2JOUL+uzLeQEb5EXdNNYjIbfnwv' +
    'EeBoRsLGQP1wlslyGVcvgYNwMSOZJtCD+m57JpmyPW0kAztPZty8';
const REAL_PROOF =
    'te6ccgECCQEAAfoACUYDSV/NmAOmNTzjkuJO9uyroF7jv0KEiJyNFd34Ye5AZsYAFgEkEBHvVar///8RAgMEBQGgm8ephwAAAAAEAQHRqcIAAAABAP////8AAAAAAAAAAGSSviEAACMoxs0wQAAAIyjGzTBEX71EWwAG3VcB0am9AdGHkcQAAAADAAAAAAAAAC4GKEgB' +
    'AWMqeBZiIZ+BquwyDeAF+7RsNF8GxENzi5Ehggz7w7trAAMqigT/kRHeYUV9yOW6VS+I4ertCLrfza4DE2ZbwGDy375e60q5VRCujBM/LFFxtPiSlyMARs/Zce/TT8MSmrXj2tCCAW8BbwcIKEgBAcYmH6W+YAWl3VAQsLkfOO2sulzQjJfNyXel/0DrUgWKAAcAmAAA' +
    'IyjGve4EAdGpwaffN1U4iqelPtYnIVOhNGqUqYn2MvScC4nyFkzmRyqX3xTonEnEtJWVAywzPykQRj2851JicjkAGScG2R2IoodojAED/5ER3mFFfcjlulUviOHq7Qi6382uAxNmW8Bg8t++Xuvoppc1TfCzjsduM2Keh8Mg79sEvyf6cwm1o2FF7h5TCQFvABRojAED' +
    'SrlVEK6MEz8sUXG0+JKXIwBGz9lx79NPwxKatePa0IJ6EULU7xRi3h2hnzwh8yy6hgD29f9GJ2Z8xMIxtt7zzQFvABQ=';
const REAL_STATE_PROOF =
    'te6ccgECaAEAC74ACUYDSrlVEK6MEz8sUXG0+JKXIwBGz9lx79NPwxKatePa0IIBbwEkW5Ajr+L///8RAP////8AAAAAAAAAAAHRqcIAAAABZJK+IQAAIyjGzTBEAdGpvWACAwQFKEgBAWQ8cyFdYaM/PtdIpYxCmisJqP6g2iuFfq43yPs/PlbrAAEoSAEBx7Gbbb7C' +
    '4BEbywVYgXpuk4KHvZ+QJ+qLiygt5Bh+2zcBbiIzAAAAAAAAAAD//////////4INNhxstL0HKCgGByRVzCaqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqsI043fC4EnDfggJCgsoSAEBpafSQFfYZDslJ3CdmGzaOEatyz7dwy0o7CH2nhfbqu8AAShIAQEd' +
    '4Th21/vJTwVTGxljdYMJUidNAIqr/APCJCZ6IWpU/wARKEgBAWaq3Es5L7YfP5FbyPF+5j01g7dgRuaSbF4qO9SY4SFwAAIoSAEBK8lyE6rznu11XGmOAVDdcAIx4aQEoZzL6FCewtFQ4IQAESK/AAF3pBlZAAbdV2AABGUY173AiAABGTVxcnwgDow8iGNDwSLyLThr' +
    'wxEm1tkOqJuFR+3leHyIn7zSr8p3mxklga7BUg3P95JeDQHc+sU/9lvZJE8KA63Go8qYTJxpu0C+DA0oSAEBsg42o7NqTN7mARBsZC6QcYsKWNryAHU9uzGJ+Va0lLYAASITw8AACMoxr3uBIA4PKEgBAWQu/D+kVsKEbRcGVl45X2mxyw5Kopw3wiYN6Wp/jb5AABEi' +
    'ESAAArQo53Ao8BARIhEgAARlGNe9wJBAQSIRIAABjB1cHCiQEhMoSAEBlUO7XGgf/F/vf05IJ9rC7u5yIq2pC8EIyWz9jVtqbtkAFyIRIAAAxLK6A0iQFBUoSAEBXWyaLJqRMSoY6QRJ51EC/uxys2lXnHuadGfUdsCmXr4AFiIRIAAAWc4KXPiQFhcoSAEBcKJuoHxo' +
    'w9V+DeKyC93L8obbxbEXAns1AYnnNRLHcMAAFSIRIAAAK+JwneiQGBkoSAEBH8tCxJpe9331IXjrh4w/6ghATTtAehvVbRfv6PNj8WQAFCIRIAAAFSvlIjCQGhsoSAEBGozJKvJsUFd3OsFRANs3ATW6GJ+N4KQ38uyK1Rg6CYgAEyIRIAAAChJCLgCQHB0oSAEBk9aX' +
    'PytIbY/OftwmE/4g27+NYFRAZy3B/n7bxoOCAnIAEiIRIAAABIVQRyCQHh8oSAEBO9bMT9H34YZDk/eLaHWj0mxwYM2lpEgEfA6pkTtzqbYAESIRIAAAAh50VPiQICEoSAEBQWadWStUc1uuwtBdNui136hF+uGRfjupxE005ljzpI8AECIRIAAAAQ9unjiQIiMoSAEB' +
    '+UDjlcCyRkv/OH1vq6rIiggQri0hD6gyjn9W6EQn5IUADyIRIAAAAIelMHCQJCUoSAEB+Yyk0xeNiLvDxga2UI/Xakvk0fVpZePlVWWwg4KZBXMADiIRIAAAAEPzBQCQJicoSAEBOxY9QtPN7VEQ4pGV8IvOmFtjspkm38wzaPSu7aYqWrcADSIRIAAAACHqQECQKCko' +
    'SAEB6onDLQiNMo00vZXzV3JqjN/oplrIqSdW9etJEIXMqyAADCIRIAAAABDzN9mQKisoSAEB+8TcMYnmKO5tE+dDKf7SyPLBPuz7hIMou1UA3tOe+oUACyIRIAAAAAh6kBGQLC0oSAEBnUwZUKdhSrmP05KX5/PDkMJPmWxfdb3+SahmrkzqAy8ACiIRIAAAAAQ9SAmQ' +
    'Li8oSAEBaHboGGG4P40ukDosEsrGpHGGp85NUBzv+PM9Zkf8NcwACSIRIAAAAAIZ31GQMDEoSAEBUBHVccSAhbeuHWvsBBT4CvJ0tXg9da7Z2ekiH6C3mrAACCIRIAAAAAEDZkGQMjMoSAEB64WUHafrbUtf5zLAQ2QD5tJ23eyTbMlBuIQvYkY2n9MAByIRIAAAAAB/' +
    'ytmQNDUoSAEBnWF00W9ZHSsKAqf7bnFFTrdQrn0RmBsohu8qFCid2lIABiIRIAAAAABCwdmQNjcoSAEBw8Wnz0LZAQbcXz+sy28qA0KY8BFg7GZvS4oSJjNlR70ABSIRIAAAAAAkPVmQODkoSAEBzUeMKD1Rgb9KwSlBIRGjeY8ft3LcrZu6FSwSO7wnaNQABCIRIAAA' +
    'AAATEtGQOjsoSAEBoTUwUkpFzXqVIHwTqs7Ign90MYUDtTwmQa7QFFw3YWAAAyIRIAAAAAALcbGQPD0oSAEBn7lTAadhrAZfzs8Ki5zHO96H99IgVqWEuOEsSv3Gx9YAAiIRIAAAAAAB6EmQPj8oSAEBy9KEtx9zsGKLZ/wkmByboOlMdm/JgKZcJuQ89qeaRUoAAQCp' +
    'IAAAAAAAAAAQAAAAAAAAAAAAAAABejqSmSqr6nhaegkJhaJlzTHzI9hJ2lEjlzfjIfsFVpXplPz01CXAps5qeSWUtxcyBfdAo5zVb1N979KLSKD26ChIAQGV1AHAeZkpjlDM1VCBAC8XcliOhyc+V14rgr1l+ACXLwAAKEgBAaB8s7kbggFfyGKQHEdGpn4poIcnAMmZ' +
    'cyS21ZvLaHckABciESAABGUY173AkEJDKEgBAUbM6ij5M4arTsC9D5kpdTyI6SzVw2FMwNSJutWnhcnFABYiEUgAARlGNe9wJERFKEgBARYRkRNuYQXjKVw/TA8nQB3+VyAoqMVd4B+hQASAthXSABQiE3CAABGUY173AkBGRyhIAQESuOSFh1ECM94QuT+cog9ZDpk6' +
    'T39JlRZIXs8U+8PQXQAQIhEgAARlGNe9wJBISSIRIAAEZMaabVCQSksoSAEBva9IWiEVVTqHmb7IDTpzTCyUv/qHx8bRPS6gYs9/YycADihIAQEkhNGXQbEmO4azpZLQh4Nx0e5ViwD17Ck+VE4SOLWuFgAOIhEgAARkxpptUJBMTSIRAAAEZIfiXcCQTk8oSAEBrxws' +
    'KKQPS06sH7e+d4f76dZaVnF8ku9fSyzcRxG9PGUADShIAQEv8Il8xakDJVKLFJ2uBq3zAbwhtETM+Wp4eB6Hbr/BjAAMIhEAAARkh+JdwJBQUShIAQHV2RlraPEDqp8Sbdi4m/JbrefwJfYIF0f7rKzrgvfhuAALIhEAAARkh+JdwJBSUyIRAAAEZIATdwCQVFUoSAEB' +
    'PpOg5IvQbWJQWyEVsBkkhvcMpBeYVO1f1cckryfEiiAACiIRAAAEZHwt6+iQVlcoSAEBD96PKLGKHTcEIQcL8+vhyQmBNCueoZR4bjIOVAot5sAACShIAQFxPAUu9qwQkOr0ewWu+sTECCg6S9XfGZSMuzFXwGurtgAIIhEAAARkfC3r6JBYWSIRAAAEZHs0DxCQWlso' +
    'SAEBtNrsUAWDL0YlKsRvv97sflq0sKA4EL1yPpjsxPK0iK0AByhIAQHD5OV45FWsk59Tx4wPjdMK3B3P1rzi0hSjAfmjBjfHTQAGIhEAAARkezQPEJBcXShIAQGsFMoEcG/cqCGAdfJ2I0Qtb0K/oeWXJuxMYsQuxMtyOwAFIhEAAARkezQPEJBeXyhIAQFJG0S2YLHv' +
    'PprNA1w4biUUUdE5Hdb2b2I650TngmerZAAEIhEAAARkezQPEJBgYShIAQHr3808rdJKY3dTOSD7CAiowXWS9etfiWMLkRT+koEfwgADIhEAAARkezQPEJBiYyIRAAAEZHsqhaiQZGUoSAEB5eBdomjKDQngFyrXkvZB9uoUlkNG5myv0ZLgvPv3mr8AAiIRAAAEZHsm' +
    'tRiQZmcoSAEB/iSuVGXxuq8Kswd4WWVuBQiYLNCmMJ3XE37aItRIAeEAAShIAQGo8ceTbb8q1jfHgFfXofn9/2TsYNLOfmFEAqu6Dmth7AAAAKkAAARkeya1GIAAAjI9k1qMQB0Vl52a8ZfAc+YN+hWDxtnlj+lsmPxDljA1ur8XVvL52UB2u3zVMU8vXtEuCq15mxh/' +
    'rjJjYRfXyn9Xl/dn2K0rUOsI';
const realLink = (): BackLink => ({ toKeyBlock: false, from: REAL_FROM, to: REAL_TO, destProof: b64(REAL_DEST_PROOF), proof: b64(REAL_PROOF), stateProof: b64(REAL_STATE_PROOF) });
const refused = (f: () => unknown, reason: RegExp) => {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(BlockProofError);
  expect((caught as Error).message).toMatch(reason);
};

describe('backward link (real mainnet answer)', () => {
  it('accepts the link tonlib accepted', () => {
    expect(() => verifyBackLink(realLink())).not.toThrow();
    expect(verifyMasterchainBackProof(REAL_FROM, REAL_TO, { complete: true, from: REAL_FROM, to: REAL_TO, steps: [{ backward: realLink() }] })).toHaveLength(1);
  });

  it('refuses it for other ends or another key flag', () => {
    const otherFile = { ...REAL_TO, fileHash: new Uint8Array(32).fill(7) };
    refused(() => verifyBackLink({ ...realLink(), to: otherFile }), /the state's prev_blocks names seqno 30497145 .* not \(-1,8000000000000000,30497145\)/);
    refused(() => verifyBackLink({ ...realLink(), toKeyBlock: true }), /to_key_block is true, the header of \(-1,8000000000000000,30497145\) says false/);
    refused(() => verifyBackLink({ ...realLink(), from: { ...REAL_FROM, rootHash: REAL_TO.rootHash } }), /the proof is of block 495fcd98/);
    // Another block's header proof where the older block's belongs.
    refused(() => verifyBackLink({ ...realLink(), destProof: b64(REAL_PROOF) }), /the proof is of block 495fcd98/);
    refused(() => verifyBackLink({ ...realLink(), stateProof: b64(REAL_PROOF) }), /the state proof is of state /);
  });

  it('reads prev_blocks of the real state proof: the zero state and the older block', () => {
    const boc = Boc.parse(b64(REAL_STATE_PROOF));
    boc.hashAll();
    const st = loadShardStateHead(new Slice(boc, boc.ref(boc.root, 0)));
    expect(st.seqno).toBe(30517698);
    expect(st.globalId).toBe(-239);
    const extra = loadMcStateExtraHead(new Slice(boc, st.custom!));
    const zero = lookupOldMcBlock(extra.prevBlocks.clone(), 0);
    expect(zero).not.toBe(PRUNED);
    expect(zero && zero !== PRUNED && Buffer.from(zero.blkRef.rootHash)).toEqual(MAINNET_ZERO_STATE.rootHash);
    expect(zero && zero !== PRUNED && Buffer.from(zero.blkRef.fileHash)).toEqual(MAINNET_ZERO_STATE.fileHash);
    // A seqno whose path the proof does not carry.
    expect(lookupOldMcBlock(extra.prevBlocks.clone(), 30_000_000)).toBe(PRUNED);
  });
});

describeFixtures('prev_blocks of a real masterchain state (the new side of a block\'s state update)', () => {
  it('lists the block before, as the block header names it', () => {
    const boc = Boc.parse(readFixture(BASE_MC_FIXTURE));
    boc.hashAll();
    const update = boc.ref(boc.root, 2);
    const st = loadShardStateHead(new Slice(boc, boc.ref(update, 1)));
    const header = Cell.fromBoc(readFixture(BASE_MC_FIXTURE))[0]!.refs[0]!;
    expect(st.seqno).toBe(34974098);
    const extra = loadMcStateExtraHead(new Slice(boc, st.custom!));
    const prev = lookupOldMcBlock(extra.prevBlocks, 34974097);
    if (prev === null || prev === PRUNED) throw new Error(`no entry: ${String(prev)}`);
    // `prev_ref:^(BlkPrevInfo 0)` of the same block: `prev_blk_info$_ prev:ExtBlkRef` (end_lt, seq_no, root_hash, file_hash).
    const ref = header.refs[header.refs.length - 1]!.beginParse();
    expect(prev.blkRef.endLt).toBe(ref.loadUintBig(64));
    expect(prev.blkRef.seqno).toBe(ref.loadUint(32));
    expect(Buffer.from(prev.blkRef.rootHash)).toEqual(ref.loadBuffer(32));
    expect(Buffer.from(prev.blkRef.fileHash)).toEqual(ref.loadBuffer(32));
    expect(prev.key).toBe(false);
  });
});

/*
 * Over the scaffold chain A (test/helpers/liteserver/chain.ts): masterchain blocks whose states list the earlier
 * ones, and the proofs the loopback liteserver serves for them (mc-state.ts, @ton/core). Each forgery changes one
 * piece and must be refused for that piece's reason.
 */
describeFixtures('backward links over the scaffold chain', () => {
  const chain = buildChainA();
  const [s0, s1, s2, s3, , s5, s6] = chain.index.map((e) => e.mc) as ServedBlock[];
  const base = readFixture(BASE_MC_FIXTURE);
  const id = (b: ServedBlock): ProofBlockIdExt => ({ workchain: b.workchain, shard: b.shard, seqno: b.seqno, rootHash: b.rootHash, fileHash: b.fileHash });
  const link = (from: ServedBlock, to: ServedBlock): BackLink => {
    const l = backLink(from, to);
    return { toKeyBlock: l.toKeyBlock, from: id(l.from), to: id(l.to), destProof: l.destProof, proof: l.proof, stateProof: l.stateProof };
  };
  const proof = (from: ServedBlock, to: ServedBlock, links: BackLink[], complete = true): PartialBlockProof<unknown, BackLink> => ({ complete, from: id(from), to: id(to), steps: links.map((backward) => ({ backward })) });
  const zero: OldMcBlock = { seqno: 0, key: true, endLt: 0n, ...MAINNET_ZERO_STATE };
  /** A masterchain block after S6 whose state lists exactly `listed`. */
  const forgedFrom = (listed: OldMcBlock[]): ServedBlock =>
    scaffoldMcBlock(base, {
      seqno: s6!.seqno + 1,
      prev: extRefOf(s6!),
      shards: chain.index[6]!.commits,
      genUtime: s6!.info.genUtime + 1,
      startLt: s6!.info.endLt + 1000n,
      endLt: s6!.info.endLt + 1005n,
      label: 'forged state',
      stateUpdate: stateUpdateTo(base, scaffoldMcState(base, { seqno: s6!.seqno + 1, prevBlocks: listed })),
    });

  it('accepts a link back to any block the newer block\'s state lists, and a chain of links', () => {
    expect(s1!.seqno).toBe(MC_A + 1);
    expect(verifyMasterchainBackProof(id(s3!), id(s1!), proof(s3!, s1!, [link(s3!, s1!)]))).toHaveLength(1);
    expect(verifyMasterchainBackProof(id(s5!), id(s0!), proof(s5!, s0!, [link(s5!, s3!), link(s3!, s0!)]))).toHaveLength(2);
    // The forged-state block itself is fine where its state is right.
    const honest = forgedFrom([zero, oldMcBlockOf(s1!)]);
    expect(() => verifyBackLink(link(honest, s1!))).not.toThrow();
  });

  it('refuses a state proof of another state (the header names another state hash)', () => {
    refused(() => verifyBackLink({ ...link(s3!, s1!), stateProof: prevBlocksProof(stateOf(s2!)) }), /the state proof is of state [0-9a-f]{64}, the header of \(-1,8000000000000000,900000003\) names/);
  });

  it('refuses a state whose prev_blocks names the block with another root hash, file hash or end lt, or not at all', () => {
    const entry = oldMcBlockOf(s1!);
    refused(() => verifyBackLink(link(forgedFrom([zero, { ...entry, rootHash: s2!.rootHash }]), s1!)), new RegExp(`prev_blocks names seqno 900000001 \\(${s2!.rootHash.toString('hex')}`));
    refused(() => verifyBackLink(link(forgedFrom([zero, { ...entry, fileHash: s2!.fileHash }]), s1!)), /prev_blocks names seqno 900000001 .* not \(-1,8000000000000000,900000001\)/);
    refused(() => verifyBackLink(link(forgedFrom([zero, { ...entry, endLt: entry.endLt + 1n }]), s1!)), /prev_blocks names end lt \d+, the header of \(-1,8000000000000000,900000001\) says \d+/);
    refused(() => verifyBackLink(link(forgedFrom([zero, oldMcBlockOf(s2!)]), s1!)), /prev_blocks has no block of seqno 900000001/);
    refused(() => verifyBackLink(link(forgedFrom([oldMcBlockOf(s1!)]), s1!)), /does not list the zero state/);
  });

  it('refuses a wrong key flag: in the link, or in the state\'s entry', () => {
    refused(() => verifyBackLink({ ...link(s3!, s1!), toKeyBlock: true }), /to_key_block is true, the header of \(-1,8000000000000000,900000001\) says false/);
    refused(() => verifyBackLink(link(forgedFrom([zero, { ...oldMcBlockOf(s1!), key: true }]), s1!)), /to_key_block is false, the state's prev_blocks says true/);
  });

  it('refuses a broken chain, an incomplete one, other ends, no links and a forward link', () => {
    refused(() => verifyMasterchainBackProof(id(s5!), id(s1!), proof(s5!, s1!, [link(s5!, s3!), link(s2!, s1!)])), /link 1 starts at \(-1,8000000000000000,900000002\) .* not where the chain is: \(-1,8000000000000000,900000003\)/);
    refused(() => verifyMasterchainBackProof(id(s3!), id(s1!), proof(s3!, s1!, [link(s3!, s1!)], false)), /the proof is incomplete/);
    refused(() => verifyMasterchainBackProof(id(s3!), id(s1!), proof(s3!, s1!, [link(s3!, s2!)])), /the links end at \(-1,8000000000000000,900000002\)/);
    refused(() => verifyMasterchainBackProof(id(s5!), id(s1!), proof(s3!, s1!, [link(s3!, s1!)])), /the proof starts at \(-1,8000000000000000,900000003\)/);
    refused(() => verifyMasterchainBackProof(id(s3!), id(s2!), proof(s3!, s1!, [link(s3!, s1!)])), /the proof ends at \(-1,8000000000000000,900000001\)/);
    refused(() => verifyMasterchainBackProof(id(s3!), id(s1!), proof(s3!, s1!, [])), /the proof has no links/);
    refused(() => verifyMasterchainBackProof(id(s3!), id(s1!), { ...proof(s3!, s1!, []), steps: [{ forward: {} }] }), /link 0 is a forward link/);
    refused(() => verifyBackLink(link(s1!, s3!)), /a backward link must go to an older block/);
  });
});
