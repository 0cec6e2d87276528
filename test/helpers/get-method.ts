import { type Address, Cell, type TupleItem, parseTuple } from '@ton/core';
import { type Tvm, createInlineTvm, serializeStackB64 } from '../../shared/tvm/executor.js';
import { MAINNET_CONFIG_BOC } from '../../shared/tvm/mainnet-config.js';
import { methodId } from '../../shared/tvm/method-id.js';

/**
 * A contract's own get-method on the real TVM (shared/tvm), for tests that check what we read from an account's data
 * against what the contract itself answers: code and data as @ton/core cells, no arguments, mainnet's config.
 */
export interface GetMethodRunner {
  run(code: Cell, data: Cell, name: string, address: string): Promise<{ exitCode: number; stack: TupleItem[] }>;
  close(): Promise<void>;
}

export async function createGetMethodRunner(): Promise<GetMethodRunner> {
  const tvm: Tvm = await createInlineTvm();
  return {
    async run(code, data, name, address) {
      const out = await tvm.runGetMethod({
        code: code.toBoc().toString('base64'),
        data: data.toBoc().toString('base64'),
        address,
        balance: 10n ** 9n,
        config: MAINNET_CONFIG_BOC,
        now: 1_760_000_000,
        methodId: methodId(name),
        stack: serializeStackB64([]),
        gasLimit: 1_000_000n,
      });
      if (!out.ok) throw new Error(out.error);
      return { exitCode: out.exitCode, stack: out.exitCode === 0 ? parseTuple(Cell.fromBase64(out.stack)) : [] };
    },
    close: () => tvm.close(),
  };
}

/** Raw `wc:HEX` (upper case), as the classifier names accounts. */
export const rawOf = (a: Address): string => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

/** A get-method's integer result. */
export function tupleInt(t: TupleItem | undefined): bigint {
  if (t?.type !== 'int') throw new Error(`not an int: ${t?.type}`);
  return t.value;
}

/** A get-method's address result (a slice or cell holding a MsgAddress), raw; null for addr_none. */
export function tupleAddr(t: TupleItem | undefined): string | null {
  if (t?.type !== 'slice' && t?.type !== 'cell') throw new Error(`not a slice: ${t?.type}`);
  const a = t.cell.beginParse().loadMaybeAddress();
  return a ? rawOf(a) : null;
}
