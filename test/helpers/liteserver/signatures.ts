/**
 * Signed masterchain blocks for `liteServer.getBlockProof`: validator keys the test owns, a key block naming them and
 * masterchain blocks they sign.
 *
 * What is REAL and what is BUILT: the key block is mainnet key block 46991999 (fixture) with one change, its
 * ConfigParam 34 (`cur_validators`) replaced by a set of ed25519 keys generated here from fixed seeds; every other
 * cell, ConfigParam 28 (catchain config, `shuffle_mc_validators` set) included, is the real block's. Changing a cell
 * gives the block a new root hash, so it is a scaffold block (blocks.ts). The signed blocks are scaffold masterchain
 * blocks after it (blocks.ts `scaffoldMcBlock` over the real block's cells) whose headers name the key block
 * (`prev_key_block_seqno`), a catchain seqno and the short hash of the masterchain validator subset; their signatures
 * are made here with node:crypto over TL `ton.blockId root_cell_hash:int256 file_hash:int256` (ton_api.tl).
 *
 * The subset and its short hash come from shared/ton/block-signatures.ts (`masterchainValidators`,
 * `validatorSetHashShort`), whose result is checked against mainnet's own header hash in
 * shared/ton/block-signatures.test.ts: the mock cannot shuffle validators without that algorithm.
 */
import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { Cell, Dictionary, beginCell, convertToMerkleProof } from '@ton/core';
import { masterchainValidators, validatorSetHashShort } from '../../../shared/ton/block-signatures.js';
import { type HeaderInfo, type ServedBlock, extRefOf, prunedBranch, readHeader, scaffoldMcBlock, servedBlock, writeHeader } from './blocks.js';

export interface TestValidator {
  publicKey: Buffer;
  privateKey: ReturnType<typeof createPrivateKey>;
  weight: bigint;
  adnlAddr: Buffer;
  /** sha256 of TL `pub.ed25519 key:int256` (constructor 0x4813b4c6), written out here rather than imported. */
  nodeIdShort: Buffer;
}

/** Validators from fixed seeds (ed25519 private keys are 32-byte seeds: RFC 8032 §5.1.5). */
export function testValidators(weights: bigint[]): TestValidator[] {
  return weights.map((weight, i) => {
    const seed = createHash('sha256').update(`tonflow test validator ${i}`).digest();
    const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
    const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(12);
    const tl = Buffer.concat([Buffer.from([0xc6, 0xb4, 0x13, 0x48]), publicKey]);
    return { publicKey, privateKey, weight, adnlAddr: createHash('sha256').update(`adnl ${i}`).digest(), nodeIdShort: createHash('sha256').update(tl).digest() };
  });
}

/** `validators#11 utime_since utime_until total:(## 16) main:(## 16) list:(Hashmap 16 ValidatorDescr)`, each `validator_addr#73`. */
function validatorSetCell(vs: TestValidator[], main: number, utimeSince: number, utimeUntil: number): Cell {
  const list = Dictionary.empty(Dictionary.Keys.Uint(16), Dictionary.Values.Cell());
  vs.forEach((v, i) => list.set(i, beginCell().storeUint(0x73, 8).storeUint(0x8e81278a, 32).storeBuffer(v.publicKey, 32).storeUint(v.weight, 64).storeBuffer(v.adnlAddr, 32).endCell()));
  const b = beginCell().storeUint(0x11, 8).storeUint(utimeSince, 32).storeUint(utimeUntil, 32).storeUint(vs.length, 16).storeUint(main, 16);
  list.storeDirect(b, Dictionary.Keys.Uint(16), {
    serialize: (src: Cell, builder) => builder.storeSlice(src.beginParse()),
    parse: (s) => s.asCell(),
  });
  return b.endCell();
}

/** The McBlockExtra of a key block: its last ref is `config:^(Hashmap 32 ^Cell)` (after `config_addr:bits256`). */
function mcExtraOf(root: Cell): Cell {
  const extra = root.refs[3]!.beginParse();
  extra.skip(32);
  extra.loadRef();
  extra.loadRef();
  extra.loadRef();
  extra.skip(512);
  return extra.loadMaybeRef()!;
}

function replaceRef(c: Cell, i: number, ref: Cell): Cell {
  const b = beginCell().storeBits(c.bits);
  c.refs.forEach((r, j) => b.storeRef(j === i ? ref : r));
  return b.endCell();
}

export interface SignedChain {
  key: ServedBlock;
  validators: TestValidator[];
  main: number;
  /** Whether the real ConfigParam 28 asks to shuffle the masterchain subset. */
  shuffle: boolean;
}

/** The real key block with ConfigParam 34 = `validators` (the first `main` of them the masterchain subset). */
export function scaffoldKeyBlock(realKeyBlock: Buffer, validators: TestValidator[], main: number): SignedChain {
  const root = Cell.fromBoc(realKeyBlock)[0]!;
  const h = readHeader(root);
  const mcExtra = mcExtraOf(root);
  const configRef = mcExtra.refs.length - 1;
  const config = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), mcExtra.refs[configRef]!.beginParse());
  config.set(34, validatorSetCell(validators, main, h.genUtime, h.genUtime + 65536));
  const p28 = config.get(28)!.beginParse();
  const shuffle = p28.loadUint(8) === 0xc2 && (p28.skip(7), p28.loadBit());
  const newConfig = beginCell().storeDictDirect(config).endCell();
  const newMcExtra = replaceRef(mcExtra, configRef, newConfig);
  const extra = root.refs[3]!;
  const newExtra = replaceRef(extra, 3, newMcExtra);
  const newRoot = replaceRef(root, 3, newExtra);
  return { key: servedBlock(newRoot.toBoc({ idx: false, crc32: true }), 'scaffold:key block 46991999 with test validators'), validators, main, shuffle };
}

/** The masterchain subset for catchain `cc` (as the C++ config computes it) and its short hash. */
export function subsetOf(chain: SignedChain, cc: number): { members: TestValidator[]; hash: number } {
  const vset = {
    utimeSince: 0,
    utimeUntil: 0,
    total: chain.validators.length,
    main: chain.main,
    list: chain.validators.map((v) => ({ publicKey: v.publicKey, weight: v.weight, adnlAddr: v.adnlAddr })),
  };
  const cfg = { shuffleMcValidators: chain.shuffle, mcCatchainLifetime: 0, shardCatchainLifetime: 0, shardValidatorsLifetime: 0, shardValidatorsNum: 0 };
  const members = masterchainValidators(vset, cfg, cc).map((d) => chain.validators.find((v) => v.publicKey.equals(Buffer.from(d.publicKey)))!);
  return { members, hash: validatorSetHashShort(cc, members.map((v) => ({ publicKey: v.publicKey, weight: v.weight, adnlAddr: v.adnlAddr }))) };
}

/**
 * A non-key masterchain block `offset` after the key block, naming it as its key block, with catchain seqno `cc` and
 * the header hash `hash` (the subset's, unless a test wants a wrong one). `prev` is the block before it.
 */
export function signedMcBlock(chain: SignedChain, base: Buffer, o: { prev: ServedBlock; cc: number; hash: number; label: string }): ServedBlock {
  const seqno = o.prev.seqno + 1;
  const scaffold = scaffoldMcBlock(base, {
    seqno,
    prev: extRefOf(o.prev),
    shards: [],
    genUtime: o.prev.info.genUtime + 5,
    startLt: o.prev.info.endLt + 1000n,
    endLt: o.prev.info.endLt + 1010n,
    label: o.label,
  });
  const root = Cell.fromBoc(scaffold.data)[0]!;
  const patch: Partial<HeaderInfo> = { prevKeyBlockSeqno: chain.key.seqno, genCatchainSeqno: o.cc, genValidatorListHashShort: o.hash };
  const newRoot = replaceRef(root, 0, writeHeader({ ...scaffold.info, ...patch }));
  return servedBlock(newRoot.toBoc({ idx: false, crc32: true }), `scaffold:${o.label}`);
}

/** A liteServer.signatureSet: `signers` sign `block`'s TL `ton.blockId` (0xc50b6e70 little-endian, root hash, file hash). */
export function signatureSet(block: ServedBlock, signers: TestValidator[], o: { cc: number; hash: number }): SignatureSetSpec {
  const data = Buffer.concat([Buffer.from([0x70, 0x6e, 0x0b, 0xc5]), block.rootHash, block.fileHash]);
  return { validatorSetHash: o.hash, catchainSeqno: o.cc, signatures: signers.map((v) => ({ nodeIdShort: v.nodeIdShort, signature: sign(null, data, v.privateKey) })) };
}

export interface SignatureSetSpec {
  validatorSetHash: number;
  catchainSeqno: number;
  signatures: Array<{ nodeIdShort: Buffer; signature: Buffer }>;
}

/**
 * A forward link's `config_proof`: MERKLE_PROOF over the key block keeping BlockInfo and McBlockExtra with the whole
 * config dictionary; value flow, state update, the extra's other parts and McBlockExtra's other refs pruned.
 */
export function keyConfigProof(key: ServedBlock): Buffer {
  const root = Cell.fromBoc(key.data)[0]!;
  const extra = root.refs[3]!;
  const mcExtra = mcExtraOf(root);
  const last = mcExtra.refs.length - 1;
  const keptMc = beginCell().storeBits(mcExtra.bits);
  mcExtra.refs.forEach((r, i) => keptMc.storeRef(i === last ? r : prunedBranch(r)));
  const keptExtra = beginCell().storeBits(extra.bits);
  extra.refs.forEach((r, i) => keptExtra.storeRef(i === 3 ? keptMc.endCell() : prunedBranch(r)));
  const proven = beginCell()
    .storeBits(root.bits)
    .storeRef(root.refs[0]!)
    .storeRef(prunedBranch(root.refs[1]!))
    .storeRef(prunedBranch(root.refs[2]!))
    .storeRef(keptExtra.endCell())
    .endCell();
  return convertToMerkleProof(proven).toBoc({ idx: false, crc32: true });
}
