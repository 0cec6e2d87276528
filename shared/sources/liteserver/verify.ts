/** Verification of a served block against the id it was asked for, and the byte helpers the source shares. */
import { createHash } from 'node:crypto';
import { NonRetryableError } from '../../runtime/errors.js';
import { Boc } from '../../ton/boc/reader.js';
import { AccountProofError, verifyAccountState, verifyShardAccountProof } from '../../ton/account-proof.js';
import { DecodeError } from '../../ton/errors.js';
import { type SnapshotAccount, snapshotAccountFromState } from '../../ton/state-snapshot.js';
import { shardHex } from '../../ton/records/format.js';
import { type Block, loadBlock } from '../../ton/tlb/Block.js';
import { shardId } from '../../ton/tlb/ShardIdent.js';
import { type FullBlockId, IntegrityFailure } from './types.js';

export interface VerifiedBlock {
  id: FullBlockId;
  data: Uint8Array;
  block: Block;
}

/**
 * Checks that `data` is the block `id` names: sha256(data) = file hash, root cell hash = root hash, and the header
 * agrees on workchain, shard and seqno. Only then is the block decoded (BlockInfo, and McBlockExtra for a
 * masterchain block); the transactions are left to the decode stage.
 */
export function verifyBlock(id: FullBlockId, answered: FullBlockId, data: Uint8Array, globalId: number): VerifiedBlock {
  if (!sameId(id, answered)) throw new IntegrityFailure(`asked for ${describeId(id)}, got ${describeId(answered)}`);
  const fileHash = createHash('sha256').update(data).digest();
  // From here on the bytes were served as the block `id`: a failure keeps them (IntegrityFailure.served).
  const served = { id, data };
  if (!equalBytes(fileHash, id.fileHash)) throw new IntegrityFailure(`file hash ${hex(fileHash)} != ${hex(id.fileHash)}`, served);
  let boc: Boc;
  try {
    boc = Boc.parse(data);
  } catch (e) {
    throw new IntegrityFailure(`not a valid BOC: ${(e as Error).message}`, served);
  }
  const rootHash = boc.hash(boc.root);
  if (!equalBytes(rootHash, id.rootHash)) throw new IntegrityFailure(`root hash ${hex(rootHash)} != ${hex(id.rootHash)}`, served);
  // The bytes are the block the id names; a decode failure from here on is ours (or a format change), not the
  // liteserver's, and retrying will not change it: DecodeError is not retryable.
  let block: Block;
  try {
    block = loadBlock(boc);
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    throw new NonRetryableError('BLOCK_UNDECODABLE', `${describeId(id)}: ${(e as Error).message}`, { cause: e });
  }
  const info = block.info;
  if (info.shard.workchain !== id.workchain || shardId(info.shard) !== id.shard || info.seqno !== id.seqno) {
    throw new IntegrityFailure(`header says ${info.shard.workchain}:${shardHex(shardId(info.shard))}:${info.seqno}`, served);
  }
  if (block.globalId !== globalId) {
    throw new NonRetryableError(
      'LITESERVER_WRONG_NETWORK',
      `${describeId(id)} has global_id ${block.globalId}, expected ${globalId}: the liteservers serve another network than configured`,
    );
  }
  return { id, data, block };
}

/**
 * Checks a `liteServer.accountState` answer for the account at shard block `id` (asked of that block itself, so the
 * answer's `shardblk` is `id` and no shard proof is needed): the block proof against `id`'s root hash, the state
 * proof against the block's state hash, the state against the proven account hash (shared/ton/account-proof.ts).
 * Returns the account as a snapshot entry, null when the proof shows it absent. A bad answer is an
 * {@link IntegrityFailure}: the pool penalises that liteserver and asks another.
 */
export function verifyAccountStateAnswer(
  id: FullBlockId,
  account: { workchain: number; hash: Uint8Array },
  answer: { id: FullBlockId; shardblk: FullBlockId; proof: Uint8Array; state: Uint8Array },
): SnapshotAccount | null {
  const what = `account ${account.workchain}:${hex(account.hash)} at ${describeId(id)}`;
  if (!sameId(id, answer.id) || !sameId(id, answer.shardblk)) {
    throw new IntegrityFailure(`${what}: answered for ${describeId(answer.id)} (shard block ${describeId(answer.shardblk)})`);
  }
  try {
    const proven = verifyShardAccountProof(id, account, answer.proof);
    verifyAccountState(proven, answer.state);
    return proven.found ? snapshotAccountFromState(answer.state, proven.lastTransLt, proven.lastTransHash) : null;
  } catch (e) {
    if (e instanceof AccountProofError || e instanceof DecodeError) throw new IntegrityFailure(`${what}: ${e.message}`);
    throw e;
  }
}

function sameId(a: FullBlockId, b: FullBlockId): boolean {
  return a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno && equalBytes(a.rootHash, b.rootHash) && equalBytes(a.fileHash, b.fileHash);
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function hex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
}

export function describeId(id: { workchain: number; shard: bigint; seqno: number }): string {
  return `(${id.workchain},${shardHex(id.shard)},${id.seqno})`;
}
