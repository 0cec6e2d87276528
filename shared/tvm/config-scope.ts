import { createHash } from 'node:crypto';
import { Cell, Dictionary, beginCell } from '@ton/core';
import { Boc } from '../ton/boc/reader.js';

/**
 * The configuration a get-method needs. The emulator (emulator-extern `run_get_method`) deserializes the whole
 * `ConfigParams` dictionary it is given on every call (most of a get-method's time on the emulator), and most of
 * the mainnet configuration is what no get-method uses unless it reads the raw dictionary: the validator sets
 * (ConfigParams 32–37, block.tlb `ValidatorSet`), the suspended address list (ConfigParam 44, read only by the
 * collator's transactions) and the parameters with negative indices (outside block.tlb's `ConfigParam`s, which
 * nothing but the raw dictionary exposes). What a get-method can see of the configuration:
 *  - the raw dictionary, only through c7: CONFIGROOT (GETPARAM 9, F829), CONFIGDICT (F830), CONFIGPARAM (F832),
 *    CONFIGOPTPARAM (F833), GETPARAMLONG (F881ii), GETGLOBVAR (F840, any index of c7), PUSH c7 (ED47),
 *    PUSHCTRX (EDE0, any register). A child VM (RUNVM DB4xxx, RUNVMX DB50) starts with an empty c7 unless its
 *    flag +16 pops one from the stack, and a c7 holding the configuration can only get onto the stack through one
 *    of those instructions, so RUNVM alone reads nothing (its 12-bit prefix, matched at every bit offset, also
 *    flagged a third of the wallets clients poll, v5r1, and the USDT jetton wallet);
 *  - the unpacked configuration (c7 param 14: storage prices, ConfigParams 19, 20, 21, 24, 25, 43, 45) that the fee
 *    instructions and GLOBALID read, and the global version (ConfigParam 8) that selects instruction semantics
 *    and gas: built from params this keeps, as are the workchains (12) and special accounts (31) the emulator
 *    unpacks with the capabilities.
 * So when none of those raw-dictionary instructions can occur in any cell the method may run or load (its code,
 * its data, its input stack), the dictionary without those parameters gives the same result; otherwise the whole
 * one. "Can occur" is decided conservatively: the 16-bit opcode at every bit offset of every
 * cell, not only where an instruction would start, and any exotic cell (a library cell or a pruned branch, whose
 * content is not here to read) counts as a read. An instruction never spans two cells (TVM: an instruction that
 * does not fit raises a cell underflow), so a per-cell scan sees every instruction whole.
 */

/**
 * ConfigParams left out when nothing reads the raw dictionary: the validator sets (prev/cur/next, temp ones) and the
 * suspended address list; negative indices go too.
 */
const UNREAD_PARAMS = new Set([32, 33, 34, 35, 36, 37, 44]);

const RAW_CONFIG_OPS_16 = new Set([0xf829, 0xf830, 0xf832, 0xf833, 0xf881, 0xf840, 0xed47, 0xede0]);

/** Whether any cell reachable from `roots` may read the raw configuration (see the module comment). */
export function mayReadRawConfig(roots: Iterable<Cell>): boolean {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const key = c.hash().toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    if (c.isExotic) return true;
    const bits = c.bits;
    let w = 0;
    for (let i = 0; i < bits.length; i++) {
      w = ((w << 1) | (bits.at(i) ? 1 : 0)) & 0xffff;
      if (i >= 15 && RAW_CONFIG_OPS_16.has(w)) return true;
    }
    stack.push(...c.refs);
  }
  return false;
}

/**
 * {@link mayReadRawConfig} on a serialized bag of cells, every cell of the bag scanned: read with the lazy BoC reader,
 * which hashes nothing (building @ton/core cells hashes each one, which cost more than the scan on every job with
 * new data). Throws on a malformed BoC.
 */
export function bocMayReadRawConfig(bytes: Uint8Array): boolean {
  const boc = Boc.parse(bytes);
  const data = boc.bytes;
  for (let c = 0; c < boc.count; c++) {
    if (boc.isExotic(c)) return true;
    const off = boc.dataOff[c]!;
    const bits = boc.bitLen[c]!;
    let w = 0;
    for (let i = 0; i < bits; i++) {
      w = ((w << 1) | ((data[off + (i >> 3)]! >> (7 - (i & 7))) & 1)) & 0xffff;
      if (i >= 15 && RAW_CONFIG_OPS_16.has(w)) return true;
    }
  }
  return false;
}

/**
 * The `ConfigParams` dictionary without the parameters only the raw dictionary exposes (see the module comment),
 * base64 BOC; the input itself when it has none of them or cannot be read.
 */
export function withoutUnreadParams(configB64: string): string {
  let dict: Dictionary<number, Cell>;
  try {
    dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(configB64));
  } catch {
    return configB64;
  }
  const kept = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  for (const [k, v] of dict) if (k >= 0 && !UNREAD_PARAMS.has(k)) kept.set(k, v);
  if (kept.size === dict.size || kept.size === 0) return configB64;
  return beginCell().storeDictDirect(kept).endCell().toBoc().toString('base64');
}

/** Most code and data BOCs whose verdict is remembered. */
const VERDICTS_KEPT = 4096;

/**
 * Chooses the configuration for each get-method: the reduced one when its code, data and stack cannot read the raw
 * dictionary, else the whole. Verdicts are kept per code and per data BOC (least recently used go), the reduced
 * configuration per configuration.
 */
export class GetMethodConfigs {
  private config: { full: string; reduced: string } | null = null;
  private readonly verdicts = new Map<string, boolean>();

  /** The configuration to run `code` on `data` with input `stack` (all base64 BOCs), given the whole one. */
  choose(full: string, code: string, data: string, stack: string): string {
    if (this.config?.full !== full) this.config = { full, reduced: withoutUnreadParams(full) };
    const reduced = this.config.reduced;
    if (reduced === full) return full;
    if (this.verdict(code) || this.verdict(data) || this.verdict(stack)) return full;
    return reduced;
  }

  private verdict(boc: string): boolean {
    // Keyed by digest: data BOCs may be large, and only the verdict is kept.
    const key = createHash('sha256').update(boc).digest('base64');
    const known = this.verdicts.get(key);
    if (known !== undefined) {
      this.verdicts.delete(key);
      this.verdicts.set(key, known);
      return known;
    }
    let reads: boolean;
    try {
      reads = bocMayReadRawConfig(Buffer.from(boc, 'base64'));
    } catch {
      // What cannot be parsed here is the emulator's to refuse; with the whole configuration it answers as before.
      reads = true;
    }
    this.verdicts.set(key, reads);
    if (this.verdicts.size > VERDICTS_KEPT) this.verdicts.delete(this.verdicts.keys().next().value!);
    return reads;
  }
}
