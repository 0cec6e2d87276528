import type { Cell, TupleItem } from '@ton/core';
import { NonRetryableError, RetryableError } from '../runtime/errors.js';
import { type TvmAccountState, isRunnable, shardAccountOf } from './account.js';
import type { Tvm } from './executor.js';
import { type EmulatedTransaction, feesOfTransaction } from './fees.js';
import { type ExternalMessage, buildExternalMessage, parseExternalMessage } from './message.js';
import { methodId } from './method-id.js';
import { stackFromB64, stackToB64 } from './stack.js';

/**
 * Get-methods, fee estimation and message sending on account states someone else provides: the gateway's state
 * from the store (or the devnet), a classifier's or emulator's state from a trace. The ports below are all it
 * needs; the TVM runs wherever the given {@link Tvm} runs it (a worker pool in the gateway).
 */

/** A block a state was read at. */
export interface TvmBlockRef {
  workchain: number;
  /** Unsigned 64-bit shard id. */
  shard: bigint;
  seqno: number;
  rootHash: Uint8Array;
  fileHash: Uint8Array;
}

/** An account's state at a masterchain block, and that block's time (the TVM's NOW). */
export interface StateAt {
  state: TvmAccountState;
  /** The masterchain block the state is as of; null when the provider cannot name one. */
  block: TvmBlockRef | null;
  utime: number;
}

/** Where account states come from. */
export interface AccountStateProvider {
  /** The state of `address` (`wc:hex`) after masterchain block `seqno`, or the latest; nonexist when unknown. */
  accountState(address: string, at: { seqno?: number }): Promise<StateAt>;
}

/** The blockchain configuration to run with: the `Hashmap 32 ^Cell` of ConfigParams, base64 BOC. */
export type ConfigProvider = () => Promise<string>;

/** Hands a checked external message to the network (a liteserver's sendMessage, the devnet's next block). */
export type MessageSender = (boc: Uint8Array) => Promise<void>;

/** tonlib's exit code for a get-method on an account without code (`smc.runResult` of an uninit account). */
export const EXIT_NOT_INITIALIZED = -13;

/** The emulator could not run the job at all (not a TVM exit code). */
export class TvmRunError extends NonRetryableError {
  constructor(message: string) {
    super('TVM_RUN_FAILED', message);
  }
}

/** The account did not accept the external message (as a liteserver refuses it). */
export class MessageRejectedError extends NonRetryableError {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super('TVM_MESSAGE_REJECTED', message);
  }
}

/** The provider has the account's state but not its code and data (a store filled from block state updates). */
export class StateUnavailableError extends RetryableError {
  constructor(address: string) {
    super('TVM_STATE_UNAVAILABLE', `code and data of ${address} are not available here: get-methods cannot run on it`);
  }
}

/** No way to send messages here (a gateway without a source). */
export class SendUnavailableError extends RetryableError {
  constructor() {
    super('TVM_SEND_UNAVAILABLE', 'sending messages is not available: this instance has no source to send them to');
  }
}

export interface GetMethodResult {
  exitCode: number;
  gasUsed: bigint;
  stack: TupleItem[];
  block: TvmBlockRef | null;
  lastTransLt: bigint;
  lastTransHash: Uint8Array;
}

/** The output stack of an outcome as TVM values. */
export type StackReader = (outcome: { stack: string }) => TupleItem[];

/**
 * A {@link StackReader} that parses each outcome's stack once: a kept outcome (result-cache.ts) comes back as the
 * same object request after request, and parsing its BOC (cell hashes included) is most of what such a request
 * costs the thread. The values are shared by those requests, which only read them; an outcome's entry goes with it.
 */
export function createStackReader(): StackReader {
  const parsed = new WeakMap<object, TupleItem[]>();
  return (outcome) => {
    let stack = parsed.get(outcome);
    if (!stack) {
      stack = stackFromB64(outcome.stack);
      parsed.set(outcome, stack);
    }
    return stack;
  };
}

export interface TvmServiceDeps {
  tvm: Tvm;
  states: AccountStateProvider;
  config: ConfigProvider;
  /** Gas a get-method may use. */
  gasLimit: bigint;
  send?: MessageSender;
  /** How output stacks are read (default: parsed on every call). */
  readStack?: StackReader;
}

export class TvmService {
  constructor(private readonly deps: TvmServiceDeps) {}

  /** Runs a get-method (by name or id) on the account's state at `at`. */
  async runGetMethod(address: string, method: string | number, stack: TupleItem[], at: { seqno?: number } = {}): Promise<GetMethodResult> {
    const { state, block, utime } = await this.deps.states.accountState(address, at);
    const base = { block, lastTransLt: state.lastTransLt, lastTransHash: state.lastTransHash };
    if (state.status === 'active' && !isRunnable(state)) throw new StateUnavailableError(address);
    if (!isRunnable(state)) return { exitCode: EXIT_NOT_INITIALIZED, gasUsed: 0n, stack: [], ...base };
    const out = await this.deps.tvm.runGetMethod({
      code: state.code,
      data: state.data,
      address,
      balance: state.balance,
      config: await this.deps.config(),
      now: utime,
      methodId: typeof method === 'number' ? method : methodId(method),
      stack: stackToB64(stack),
      gasLimit: this.deps.gasLimit,
    });
    if (!out.ok) throw new TvmRunError(`get-method failed: ${out.error}`);
    // A copy of the list, so that a caller changing its result cannot change another's.
    const values = this.deps.readStack ? [...this.deps.readStack(out)] : stackFromB64(out.stack);
    return { exitCode: out.exitCode, gasUsed: out.gasUsed, stack: values, ...base };
  }

  /**
   * Fees of an external message with `body` (and a StateInit of `initCode`/`initData`) to `address`, by running
   * it on the account's latest state: tonlib's `query.estimateFees`.
   */
  async estimateFee(input: { address: string; body: Cell; initCode: Cell | null; initData: Cell | null; ignoreChksig: boolean }): Promise<EmulatedTransaction> {
    const message = buildExternalMessage(input.address, input.body, { code: input.initCode, data: input.initData });
    return this.emulateExternal(await this.deps.states.accountState(input.address, {}), message, input.ignoreChksig);
  }

  /**
   * Checks a signed external message (BOC, base64) as a liteserver does before taking it (it must parse and its
   * account must accept it on the current state), then sends it.
   */
  async send(b64: string): Promise<ExternalMessage> {
    const msg = parseExternalMessage(b64);
    if (!this.deps.send) throw new SendUnavailableError();
    const at = await this.deps.states.accountState(msg.dest, {});
    // An active account whose code or data the provider lacks cannot be emulated: the network checks it instead.
    const s = at.state;
    if (s.shardAccount || s.status !== 'active' || isRunnable(s)) await this.emulateExternal(at, Buffer.from(msg.boc).toString('base64'), false);
    await this.deps.send(msg.boc);
    return msg;
  }

  /** Builds the external message to `address` with `body` (and a StateInit) and sends it as {@link send} does. */
  async sendQuery(input: { address: string; body: Cell; initCode: Cell | null; initData: Cell | null }): Promise<ExternalMessage> {
    return this.send(buildExternalMessage(input.address, input.body, { code: input.initCode, data: input.initData }));
  }

  private async emulateExternal({ state, utime }: StateAt, message: string, ignoreChksig: boolean): Promise<EmulatedTransaction> {
    const out = await this.deps.tvm.runTransaction({
      shardAccount: shardAccountOf(state, utime),
      message,
      config: await this.deps.config(),
      now: utime,
      lt: state.lastTransLt + 1_000_000n,
      randomSeed: null,
      ignoreChksig,
    });
    if (!out.ok) {
      const exit = out.vmExitCode;
      throw new MessageRejectedError(
        `cannot apply external message to current state : ${out.error}${exit !== null ? ` (exit code ${exit})` : ''}`,
        exit,
      );
    }
    return feesOfTransaction(out.transaction);
  }
}
