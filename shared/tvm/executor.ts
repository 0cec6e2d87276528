import { Address, Cell, type TupleItem, parseTuple, serializeTuple } from '@ton/core';
import { Executor } from '@ton/sandbox';
import { GetMethodConfigs } from './config-scope.js';

/**
 * The TVM: get-methods and transactions run by @ton/sandbox's `Executor`, the node's emulator-extern
 * (crypto/vm, crypto/block/transaction.cpp) compiled to WASM. This file is the only importer of @ton/sandbox.
 *
 * Jobs and outcomes are plain data (BOCs as base64 strings, bigints), so that the same job runs in this thread
 * ({@link createInlineTvm}: the devnet, which runs its blocks' transactions one after another anyway) or in a
 * worker thread (pool.ts: the gateway, whose event loop must never run a VM).
 */

/** A get-method on an account state (the liteserver's `runSmcMethod`, tonlib's `smc.runGetMethod`). */
export interface GetMethodJob {
  /** Code and data of the account, base64 BOCs. */
  code: string;
  data: string;
  /** The account's address, `wc:hex` (the TVM's c7 MYADDR). */
  address: string;
  balance: bigint;
  /** The `Hashmap 32 ^Cell` of ConfigParams, base64 BOC (c7 CONFIGROOT; also gas prices). */
  config: string;
  /** c7 NOW: unix time of the state (the block's gen_utime). */
  now: number;
  methodId: number;
  /** The input stack as a base64 BOC of `VmStack` (`serializeStackB64`). */
  stack: string;
  /** Most gas the method may use (the liteserver allows 1,000,000 on `runSmcMethod`). */
  gasLimit: bigint;
  /** Library cells (`HashmapE 256 ^Cell`) the code may load, base64 BOC. */
  libs?: string | null;
}

export type GetMethodOutcome =
  | { ok: true; exitCode: number; gasUsed: bigint; /** Output `VmStack`, base64 BOC. */ stack: string; missingLibrary: string | null }
  | { ok: false; error: string };

/** An inbound message applied to an account (`Transaction::prepare_*` … `commit` of the collator). */
export interface TransactionJob {
  /** The account's `ShardAccount`, base64 BOC. */
  shardAccount: string;
  /** The `Message Any`, base64 BOC. */
  message: string;
  config: string;
  now: number;
  /** Logical time the transaction starts at (at least the account's last lt + 1 and the message's created_lt + 1). */
  lt: bigint;
  /** 32 bytes, base64; null: zeros. */
  randomSeed: string | null;
  /** Run CHKSIGNU/CHKSIGNS as if every signature were valid (fee estimation of an unsigned message). */
  ignoreChksig: boolean;
  libs?: string | null;
}

export type TransactionOutcome =
  | { ok: true; /** `Transaction`, base64 BOC. */ transaction: string; /** The account after it, `ShardAccount` base64 BOC. */ shardAccount: string }
  | { ok: false; error: string; /** Set when the compute phase ran (e.g. an external message not accepted). */ vmExitCode: number | null };

/** What runs TVM jobs: in this thread, or a worker pool. */
export interface Tvm {
  runGetMethod(job: GetMethodJob): Promise<GetMethodOutcome>;
  runTransaction(job: TransactionJob): Promise<TransactionOutcome>;
  close(): Promise<void>;
}

/** A BOC handed to the emulator as it is: @ton/sandbox only ever calls `toBoc()` on the message and library cells. */
function bocCell(b64: string): Cell {
  return { toBoc: () => Buffer.from(b64, 'base64') } as unknown as Cell;
}

export interface TvmExecutorOptions {
  /**
   * Run get-methods that cannot read the raw configuration without the parameters only it exposes (config-scope.ts:
   * the same result, a fraction of the emulator's time). Default true; false runs every job with the configuration as given.
   */
  scopeConfig?: boolean;
}

/** Input stacks kept parsed per executor, and the longest kept (base64 characters). */
const STACKS_KEPT = 256;
const STACK_KEPT_CHARS = 4096;

/** Runs jobs on one emulator instance, synchronously under the promise (the WASM call blocks the thread). */
export class TvmExecutor {
  private readonly configs: GetMethodConfigs | null;
  /**
   * Input stacks parsed, by their BoC: most jobs repeat a few (every `seqno` has the empty one), and parsing one
   * hashes each of its cells in JavaScript. The items are only read (serialized again for the emulator).
   */
  private readonly stacks = new Map<string, TupleItem[]>();

  private constructor(
    private readonly executor: Executor,
    opts: TvmExecutorOptions,
  ) {
    this.configs = opts.scopeConfig === false ? null : new GetMethodConfigs();
  }

  static async create(opts: TvmExecutorOptions = {}): Promise<TvmExecutor> {
    return new TvmExecutor(await Executor.create(), opts);
  }

  async runGetMethod(job: GetMethodJob): Promise<GetMethodOutcome> {
    const res = await this.executor.runGetMethod({
      code: bocCell(job.code),
      data: bocCell(job.data),
      methodId: job.methodId,
      // The executor serializes the stack itself; parse ours back into items for it.
      stack: this.stackItems(job.stack),
      // Without what only the raw dictionary exposes when the method cannot read it (config-scope.ts): same result.
      config: this.configs ? this.configs.choose(job.config, job.code, job.data, job.stack) : job.config,
      verbosity: 'short',
      ...(job.libs ? { libs: bocCell(job.libs) } : {}),
      address: Address.parseRaw(job.address),
      unixTime: job.now,
      balance: job.balance,
      randomSeed: Buffer.alloc(32),
      gasLimit: job.gasLimit,
      debugEnabled: false,
    });
    const out = res.output;
    if (!out.success) return { ok: false, error: out.error };
    return { ok: true, exitCode: out.vm_exit_code, gasUsed: BigInt(out.gas_used), stack: out.stack, missingLibrary: out.missing_library };
  }

  private stackItems(b64: string): TupleItem[] {
    const known = this.stacks.get(b64);
    if (known) return known;
    const items = parseTuple(Cell.fromBase64(b64));
    if (b64.length <= STACK_KEPT_CHARS) {
      if (this.stacks.size >= STACKS_KEPT) this.stacks.delete(this.stacks.keys().next().value!);
      this.stacks.set(b64, items);
    }
    return items;
  }

  async runTransaction(job: TransactionJob): Promise<TransactionOutcome> {
    const res = await this.executor.runTransaction({
      config: job.config,
      libs: job.libs ? bocCell(job.libs) : null,
      verbosity: 'short',
      shardAccount: job.shardAccount,
      message: bocCell(job.message),
      now: job.now,
      lt: job.lt,
      randomSeed: job.randomSeed === null ? null : Buffer.from(job.randomSeed, 'base64'),
      ignoreChksig: job.ignoreChksig,
      debugEnabled: false,
    });
    const r = res.result;
    if (!r.success) return { ok: false, error: r.error, vmExitCode: r.vmResults?.vmExitCode ?? null };
    return { ok: true, transaction: r.transaction, shardAccount: r.shardAccount };
  }
}

/** A {@link Tvm} in this thread: one emulator, jobs one at a time. */
export async function createInlineTvm(): Promise<Tvm> {
  const ex = await TvmExecutor.create();
  return {
    runGetMethod: (job) => ex.runGetMethod(job),
    runTransaction: (job) => ex.runTransaction(job),
    close: async () => {},
  };
}

/** A stack of TVM values as the base64 `VmStack` BOC a {@link GetMethodJob} carries. */
export function serializeStackB64(items: Parameters<typeof serializeTuple>[0]): string {
  return serializeTuple(items).toBoc().toString('base64');
}
