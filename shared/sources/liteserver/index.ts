/**
 * The `liteserver` block source: follows mainnet or testnet through liteservers (ADNL over TCP, lite_api.tl),
 * masterchain block after masterchain block, and yields with each one every shard block it commits.
 *
 * Split by concern: connection.ts (one ADNL connection; the only importer of `ton-lite-client`, house-style rule 4),
 * pool.ts (rotation and backoff), verify.ts (served bytes against the requested id), walk.ts (the shard walk),
 * checkpoint.ts, global-config.ts, source.ts (the follow loop). Everything the rest of tonflow sees is exported
 * here: {@link BlockSource} plus a thin {@link LiteserverConnection} for diagnostics and tests.
 *
 * What is verified, and what is not:
 * - every block's bytes are checked against the id they were asked for: file hash = sha256(bytes), root hash = the
 *   representation hash of the BOC's root cell. A liteserver that serves other bytes is penalised, and the block is
 *   fetched from another one; bytes that fail the check are never yielded as the block: they come in the group's
 *   `rejected` list with the reason, for the follower's dead-letter topic. (ton-lite-client checks none of this: it
 *   decodes answers and leaves proofs to the caller.)
 * - shard block ids come from verified blocks only (the masterchain block's ShardHashes, then prev refs of verified
 *   shard blocks), so every shard block is hash-chained to its masterchain block.
 * - masterchain block N+1 must name block N (the one already published) as its prev block, so a liteserver cannot
 *   splice in a block of another chain once the follower has a starting point.
 * - Merkle proofs the source hands on are checked against the block ids they claim: account states
 *   (`accountStatesAt`, shared/ton/account-proof.ts), shard block proofs (`shardBlockProof`, one
 *   `liteServer.getShardBlockProof`: shared/ton/shard-block-proof.ts) and masterchain back links
 *   (`masterchainBackProof`, `liteServer.getBlockProof` backward links between two masterchain blocks the caller
 *   names: shared/ton/mc-back-proof.ts); an answer that fails is an integrity failure (another liteserver is asked).
 * - the validator signatures `masterchainBlockSignatures` hands on (`liteServer.getBlockProof` forward links from a
 *   key block the caller names) are checked against the validator set that key block's config gives
 *   (shared/ton/block-signatures.ts), likewise an integrity failure when they fail.
 * - NOT verified: the signatures of the blocks the source follows. The first masterchain block of a fresh start is
 *   trusted as the liteserver reports it. Use liteservers you trust (`--liteserver-config`) if that matters.
 */
export {
  BlockIntegrityError,
  type FullBlockId,
  type LiteserverEndpoint,
  type LiteserverSource,
  type LiteserverSourceOptions,
  type LiteserverStatus,
  LiteserverAnswerError,
  MessageRefusedError,
  LiteserverUnavailableError,
  type SourceLogger,
  type TonNetwork,
} from './types.js';
export { type ParsedGlobalConfig, bundledGlobalConfig, loadGlobalConfig, parseGlobalConfig } from './global-config.js';
export { type ConnectOptions, type LiteserverConnection, type MasterchainInfo, type MasterchainInfoExt, connectLiteserver } from './connection.js';
export { createLiteserverSource } from './source.js';
