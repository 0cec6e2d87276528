import { createHash, createPublicKey, verify } from 'node:crypto';
import type { Boc } from './boc/reader.js';
import { Slice } from './boc/slice.js';
import { crc32c } from './boc/crc32c.js';
import { skipCurrencyCollection } from './tlb/CurrencyCollection.js';
import { type CatchainConfig, loadCatchainConfig } from './tlb/CatchainConfig.js';
import { PRUNED, keyFromInt, lookupHashmapProven } from './tlb/Hashmap.js';
import { type ValidatorDescr, type ValidatorSet, loadValidatorSet } from './tlb/ValidatorSet.js';
import { BlockProofError, MC_SHARD, type PartialBlockProof, type ProofBlockIdExt, describe, equal, hex, mcBlockExtraOf, sameId, virtualRoot } from './shard-block-proof.js';

/**
 * Checks the validator signatures of a masterchain block as tonlib does before it answers
 * `blocks.getMasterchainBlockSignatures` (TonlibClient.cpp GetMasterchainBlockSignatures; check-proof.cpp
 * `BlockProofLink::validate`): a `liteServer.partialBlockProof` (lite_api.tl) of forward links
 * `liteServer.blockLinkForward to_key_block from to dest_proof config_proof signatures:liteServer.SignatureSet`,
 * each from a key block to a later masterchain block:
 *
 * - `config_proof` is a Merkle proof of the `from` key block keeping its McBlockExtra `config` with ConfigParams 34
 *   (`cur_validators`) and 28 (catchain config); `dest_proof` a Merkle proof of the `to` block's header;
 * - the masterchain validator subset for the header's `gen_catchain_seqno` (mc-config.cpp
 *   `do_compute_validator_set`: the first `main` validators, shuffled with ValidatorSetPRNG when
 *   `shuffle_mc_validators` is set) must hash (block.cpp `compute_validator_set_hash`) to the header's
 *   `gen_validator_list_hash_short` and to the signature set's `validator_set_hash`;
 * - every signature is ed25519 by a distinct member over TL `ton.blockId root_cell_hash:int256 file_hash:int256`
 *   (ton_api.tl, constructor 0xc50b6e70) of the `to` block, and their weight is more than 2/3 of the subset's
 *   (signature-set.cpp `check_threshold`).
 */

export interface BlockSignature {
  /** sha256 of TL `pub.ed25519 key:int256` (the validator's ADNL-style short id). */
  nodeIdShort: Uint8Array;
  signature: Uint8Array;
}

export interface ForwardLink {
  toKeyBlock: boolean;
  from: ProofBlockIdExt;
  to: ProofBlockIdExt;
  destProof: Uint8Array;
  configProof: Uint8Array;
  signatures: { validatorSetHash: number; catchainSeqno: number; signatures: BlockSignature[] };
}

const TON_BLOCK_ID = 0xc50b6e70;
const PUB_ED25519 = 0x4813b4c6;
/** `test0.validatorSet` (block.cpp `compute_validator_set_hash`): the TL the short hash is a crc32c of. */
const TEST0_VALIDATOR_SET = -1877581587;

/**
 * Checks `proof` from key block `known` to masterchain block `target` and returns the last link's signatures (the
 * target's). Throws {@link BlockProofError}.
 */
export function verifyMasterchainBlockSignatures(known: ProofBlockIdExt, target: ProofBlockIdExt, proof: PartialBlockProof<ForwardLink>): BlockSignature[] {
  if (!sameId(proof.from, known)) throw new BlockProofError(`the proof starts at ${describe(proof.from)} (${hex(proof.from.rootHash)}), not at ${describe(known)}`);
  if (!sameId(proof.to, target)) throw new BlockProofError(`the proof ends at ${describe(proof.to)} (${hex(proof.to.rootHash)}), not at ${describe(target)}`);
  if (!proof.complete) throw new BlockProofError('the proof is incomplete');
  if (proof.steps.length === 0) throw new BlockProofError('the proof has no links');
  let cur = known;
  let last: ForwardLink | null = null;
  proof.steps.forEach((step, i) => {
    if (!('forward' in step)) throw new BlockProofError(`link ${i} is a backward link; only forward links from a key block are checked`);
    const link = step.forward;
    if (!sameId(link.from, cur)) throw new BlockProofError(`link ${i} starts at ${describe(link.from)}, not where the chain is (${describe(cur)})`);
    if (i < proof.steps.length - 1 && !link.toKeyBlock) throw new BlockProofError(`link ${i} ends at ${describe(link.to)}, which is not a key block, before the last link`);
    try {
      verifyForwardLink(link);
    } catch (e) {
      throw new BlockProofError(`link ${i} from ${describe(link.from)} to ${describe(link.to)}: ${(e as Error).message}`, { cause: e });
    }
    cur = link.to;
    last = link;
  });
  if (!sameId(cur, target)) throw new BlockProofError(`the links end at ${describe(cur)}, not at ${describe(target)}`);
  return (last as ForwardLink | null)!.signatures.signatures;
}

/** One forward link (check-proof.cpp, the `is_fwd` branch). Throws {@link BlockProofError}. */
export function verifyForwardLink(link: ForwardLink): void {
  const { from, to } = link;
  if (from.workchain !== -1 || from.shard !== MC_SHARD || to.workchain !== -1 || to.shard !== MC_SHARD) throw new BlockProofError('both ends must be masterchain blocks');
  if (from.seqno >= to.seqno) throw new BlockProofError('a forward link must go to a later block');
  if (from.seqno === 0) throw new BlockProofError('links from the zero state (its config is in the state) are not checked');

  const src = virtualRoot(link.configProof);
  const srcInfo = header(src.boc, src.root, from);
  if (!srcInfo.keyBlock) throw new BlockProofError(`${describe(from)} is not a key block`);
  const config = keyBlockConfig(src.boc, src.root);

  const dst = virtualRoot(link.destProof);
  const info = header(dst.boc, dst.root, to);
  if (info.keyBlock !== link.toKeyBlock) throw new BlockProofError(`to_key_block is ${link.toKeyBlock}, the header says ${info.keyBlock}`);

  const nodes = masterchainValidators(config.validators, config.catchain, info.genCatchainSeqno);
  const sigs = link.signatures;
  const hash = validatorSetHashShort(sigs.catchainSeqno, nodes);
  if (hash !== info.genValidatorListHashShort) {
    throw new BlockProofError(
      `the validator set of catchain seqno ${info.genCatchainSeqno} computed from ${describe(from)} hashes to ${hash}, the block header says ${info.genValidatorListHashShort}`,
    );
  }
  if (sigs.catchainSeqno !== info.genCatchainSeqno) throw new BlockProofError(`the signatures are of catchain seqno ${sigs.catchainSeqno}, the block's is ${info.genCatchainSeqno}`);
  if (sigs.validatorSetHash >>> 0 !== hash) throw new BlockProofError(`the signature set names validator set hash ${sigs.validatorSetHash >>> 0}, expected ${hash}`);
  checkSignatures(nodes, sigs.signatures, to);
}

/** The ed25519 signatures of `block` by distinct members of `nodes`, weighing more than 2/3 of them. */
export function checkSignatures(nodes: readonly ValidatorDescr[], signatures: readonly BlockSignature[], block: ProofBlockIdExt): bigint {
  const byId = new Map<string, ValidatorDescr>();
  let total = 0n;
  for (const n of nodes) {
    byId.set(hex(nodeIdShort(n.publicKey)), n);
    total += n.weight;
  }
  const data = toSign(block);
  const seen = new Set<string>();
  let weight = 0n;
  for (const s of signatures) {
    const id = hex(s.nodeIdShort);
    if (seen.has(id)) throw new BlockProofError(`validator ${id} signed twice`);
    seen.add(id);
    const v = byId.get(id);
    if (!v) throw new BlockProofError(`signer ${id} is not in the validator set`);
    if (!verify(null, data, ed25519Key(v.publicKey), s.signature)) throw new BlockProofError(`the signature of validator ${id} does not verify`);
    weight += v.weight;
  }
  if (weight * 3n <= total * 2n) throw new BlockProofError(`the signatures weigh ${weight} of ${total}, not more than 2/3`);
  return weight;
}

/** TL `ton.blockId root_cell_hash:int256 file_hash:int256` of a block: what its validators sign. */
export function toSign(block: Pick<ProofBlockIdExt, 'rootHash' | 'fileHash'>): Buffer {
  const out = Buffer.alloc(68);
  out.writeUInt32LE(TON_BLOCK_ID, 0);
  Buffer.from(block.rootHash).copy(out, 4);
  Buffer.from(block.fileHash).copy(out, 36);
  return out;
}

/** A validator's short id: sha256 of TL `pub.ed25519 key:int256` (keys.cpp `PublicKey::compute_short_id`). */
export function nodeIdShort(publicKey: Uint8Array): Buffer {
  const tl = Buffer.alloc(36);
  tl.writeUInt32LE(PUB_ED25519, 0);
  Buffer.from(publicKey).copy(tl, 4);
  return createHash('sha256').update(tl).digest();
}

/**
 * The masterchain validator subset of `vset` for catchain `ccSeqno` (mc-config.cpp `do_compute_validator_set`): the
 * first `main` validators, in list order or, with `shuffle_mc_validators`, permuted by ValidatorSetPRNG.
 */
export function masterchainValidators(vset: ValidatorSet, catchain: CatchainConfig, ccSeqno: number): ValidatorDescr[] {
  const count = Math.min(vset.main, vset.total);
  if (!catchain.shuffleMcValidators) return vset.list.slice(0, count);
  const prng = validatorSetPrng(-1, MC_SHARD, ccSeqno);
  const idx = new Array<number>(count).fill(0);
  for (let i = 0; i < count; i++) {
    const j = Number((BigInt(i + 1) * prng()) >> 64n);
    idx[i] = idx[j]!;
    idx[j] = i;
  }
  return idx.map((i) => vset.list[i]!);
}

/**
 * mc-config.h ValidatorSetPRNG with a zero seed: SHA-512 of `seed:bits256 shard:uint64 workchain:int32
 * cc_seqno:uint32` (big-endian) gives eight 64-bit big-endian words, then the seed is incremented (as a big-endian
 * number) for the next eight.
 */
function validatorSetPrng(workchain: number, shard: bigint, ccSeqno: number): () => bigint {
  const descr = Buffer.alloc(48);
  descr.writeBigUInt64BE(shard, 32);
  descr.writeInt32BE(workchain, 40);
  descr.writeUInt32BE(ccSeqno >>> 0, 44);
  let hash = Buffer.alloc(0);
  let pos = 8;
  return () => {
    if (pos >= 8) {
      hash = createHash('sha512').update(descr).digest();
      for (let i = 31; i >= 0; i--) {
        descr[i] = (descr[i]! + 1) & 0xff;
        if (descr[i] !== 0) break;
      }
      pos = 0;
    }
    return hash.readBigUInt64BE(8 * pos++);
  };
}

/** block.cpp `compute_validator_set_hash`: crc32c of TL `test0.validatorSet cc_seqno:int nodes:(vector (key:int256 weight:long addr:int256))`. */
export function validatorSetHashShort(ccSeqno: number, nodes: readonly ValidatorDescr[]): number {
  const out = Buffer.alloc(12 + nodes.length * 72);
  out.writeInt32LE(TEST0_VALIDATOR_SET, 0);
  out.writeUInt32LE(ccSeqno >>> 0, 4);
  out.writeUInt32LE(nodes.length, 8);
  nodes.forEach((n, i) => {
    const at = 12 + i * 72;
    Buffer.from(n.publicKey).copy(out, at);
    out.writeBigUInt64LE(n.weight, at + 32);
    Buffer.from(n.adnlAddr).copy(out, at + 40);
  });
  return crc32c(out) >>> 0;
}

/**
 * The header fields the check reads, from a proven `block#11ef55aa … info:^BlockInfo` whose root must hash to `id`'s
 * root hash. BlockInfo is read up to `prev_key_block_seqno` only (its refs may be pruned).
 */
function header(boc: Boc, root: number, id: ProofBlockIdExt): { keyBlock: boolean; genValidatorListHashShort: number; genCatchainSeqno: number } {
  if (!equal(boc.hashAt(root, 0), id.rootHash)) throw new BlockProofError(`the proof is of block ${hex(boc.hashAt(root, 0))}, not ${hex(id.rootHash)}`);
  const block = new Slice(boc, root);
  if (block.loadUint(32) !== 0x11ef55aa) throw new BlockProofError('the proven cell is not a block#11ef55aa');
  const infoCell = block.loadRef();
  if (boc.isExotic(infoCell)) throw new BlockProofError('BlockInfo is pruned from the proof');
  const s = new Slice(boc, infoCell);
  if (s.loadUint(32) !== 0x9bc7a987) throw new BlockProofError('BlockInfo has another tag');
  s.loadUint(32); // version
  const notMaster = s.loadBit();
  s.skip(5); // after_merge before_split after_split want_split want_merge
  const keyBlock = s.loadBit();
  s.skip(1 + 8); // vert_seqno_incr flags
  const seqno = s.loadUint(32);
  s.loadUint(32); // vert_seq_no
  // shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64
  s.skip(2 + 6);
  const workchain = s.loadInt(32);
  s.skip(64 + 32 + 64 + 64); // shard_prefix gen_utime start_lt end_lt
  const genValidatorListHashShort = s.loadUint(32);
  const genCatchainSeqno = s.loadUint(32);
  if (notMaster || workchain !== -1 || seqno !== id.seqno) throw new BlockProofError(`the proven header names (${workchain},…,${seqno}), not ${describe(id)}`);
  return { keyBlock, genValidatorListHashShort, genCatchainSeqno };
}

/**
 * ConfigParams 34 (or 32, the validators before an election's switch: tests) and 28 of a proven key block: `McBlockExtra … config:key_block?ConfigParams` (block.tlb). */
export function keyBlockConfig(boc: Boc, root: number, validatorsParam: 32 | 34 = 34): { validators: ValidatorSet; catchain: CatchainConfig } {
  const block = new Slice(boc, root);
  block.skip(64);
  block.loadRef();
  block.loadRef();
  block.loadRef();
  const extraCell = block.loadRef();
  if (boc.isExotic(extraCell)) throw new BlockProofError('BlockExtra is pruned from the proof');
  const mc = mcBlockExtraOf(boc, extraCell);
  if (!mc.loadBit()) throw new BlockProofError('McBlockExtra is not a key block\'s');
  if (mc.loadBit()) mc.loadRef(); // shard_hashes
  if (mc.loadBit()) mc.loadRef(); // shard_fees: HashmapAugE 96 ShardFeeCreated ShardFeeCreated, then its extra
  skipCurrencyCollection(mc);
  skipCurrencyCollection(mc);
  mc.loadRef(); // ^[ prev_blk_signatures recover_create_msg mint_msg ]
  mc.skip(256); // config_addr
  const dict = mc.loadRef();
  if (boc.isExotic(dict)) throw new BlockProofError('the config dictionary is pruned from the proof');
  const param = (n: number): Slice | null => {
    const v = lookupHashmapProven(boc, dict, 32, keyFromInt(n, 32));
    if (v === PRUNED) throw new BlockProofError(`ConfigParam ${n} is pruned from the proof`);
    if (v === null) return null;
    const cell = v.loadRef();
    if (boc.isExotic(cell)) throw new BlockProofError(`ConfigParam ${n} is pruned from the proof`);
    return new Slice(boc, cell);
  };
  const p34 = param(validatorsParam);
  if (!p34) throw new BlockProofError(`the key block's config has no ConfigParam ${validatorsParam}`);
  const p28 = param(28);
  return {
    validators: loadValidatorSet(p34),
    // Without ConfigParam 28 the C++ defaults apply: no shuffling.
    catchain: p28 ? loadCatchainConfig(p28) : { shuffleMcValidators: false, mcCatchainLifetime: 0, shardCatchainLifetime: 0, shardValidatorsLifetime: 0, shardValidatorsNum: 0 },
  };
}

function ed25519Key(raw: Uint8Array) {
  return createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(raw)]), format: 'der', type: 'spki' });
}
