import { Cell, type TupleItem, beginCell, parseTuple } from '@ton/core';
import { NonRetryableError } from '../runtime/errors.js';
import { serializeStackB64 } from './executor.js';

/**
 * TVM stacks as TON Center's APIs write them.
 *
 * v2 (`runGetMethod` of toncenter/ton-http-api over tonlib, api-v2.md §3.9): input entries `[type, value]` with
 * `num`/`number`/`int` (decimal or `0x` hex, number or string), `cell`/`slice` (a base64 BOC, a tonlib
 * `{bytes}` object or the legacy cell object `{data: {b64, len}, refs}`), `tvm.Cell`/`tvm.Slice` (base64 BOC,
 * what @ton/ton sends). Output: numbers as Python `hex()` strings, cells and slices both as
 * `["cell", {bytes, object}]`, tuples and lists as `["tuple"|"list", {"@type": "tvm.tuple"|"tvm.list", elements}]`
 * whose elements stay tonlib objects (`tvm.stackEntryNumber` …). Which tuples are lists is tonlib's rule
 * (TonlibClient.cpp `to_tonlib_api(StackEntry)`): null is the empty list, and a pair whose second item is a list is
 * a list; so null prints as `["list", {"elements": []}]`.
 *
 * v3 (`POST /api/v3/runGetMethod`, api-v3.md §8.5): `{type, value}` with `num` (hex), `cell`/`slice` (base64 BOC),
 * `tuple`/`list` (nested arrays of the same).
 */

/** A stack the caller sent that cannot be read (TON Center: 422 with this text). */
export class StackInputError extends NonRetryableError {
  constructor(message: string) {
    super('TVM_BAD_STACK', message);
  }
}

/** Cells as tonlib serializes them (`vm::std_boc_serialize`, mode 0: no index, no CRC). */
function boc(c: Cell): string {
  return c.toBoc({ idx: false, crc32: false }).toString('base64');
}

/** Python `hex()`: lower case, `0x`, negative as `-0x…`. */
export function pythonHex(v: bigint): string {
  return v < 0n ? `-0x${(-v).toString(16)}` : `0x${v.toString(16)}`;
}

function parseInteger(v: unknown): bigint {
  const s = typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : null;
  if (s === null || !/^-?(0x[0-9a-fA-F]+|\d+)$/.test(s)) throw new StackInputError(`Invalid number stack entry: ${JSON.stringify(v)}`);
  const neg = s.startsWith('-');
  const body = neg ? s.slice(1) : s;
  const n = BigInt(body);
  return neg ? -n : n;
}

function parseBocString(v: string): Cell {
  try {
    const cells = Cell.fromBoc(Buffer.from(v, 'base64'));
    if (cells.length !== 1) throw new Error(`${cells.length} roots`);
    return cells[0]!;
  } catch (e) {
    throw new StackInputError(`failed to parse cell: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** ton-http-api's legacy cell object: `{data: {b64, len}, refs: [...]}` (tvm_valuetypes `deserialize_cell_from_json`). */
function legacyCell(o: Record<string, unknown>, depth = 0): Cell {
  if (depth > 256) throw new StackInputError('cell object is too deep');
  const data = o.data as { b64?: unknown; len?: unknown } | undefined;
  if (!data || typeof data.b64 !== 'string' || typeof data.len !== 'number') throw new StackInputError('cell object needs data.b64 and data.len');
  const bytes = Buffer.from(data.b64, 'base64');
  if (data.len < 0 || data.len > 1023 || data.len > bytes.length * 8) throw new StackInputError('cell object data.len is out of range');
  const refs = Array.isArray(o.refs) ? o.refs : [];
  if (refs.length > 4) throw new StackInputError('cell object has more than 4 refs');
  const b = beginCell();
  for (let i = 0; i < data.len; i++) b.storeBit((bytes[i >> 3]! >> (7 - (i & 7))) & 1);
  for (const r of refs) b.storeRef(legacyCell(r as Record<string, unknown>, depth + 1));
  return b.endCell();
}

function parseCellValue(v: unknown): Cell {
  if (typeof v === 'string') return parseBocString(v);
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    if (typeof o.bytes === 'string') return parseBocString(o.bytes);
    return legacyCell(o);
  }
  throw new StackInputError(`Invalid cell stack entry: ${JSON.stringify(v)}`);
}

/** The v2 input stack as TVM values (bottom first, as the entries are listed). */
export function parseV2Stack(stack: unknown): TupleItem[] {
  if (stack === undefined || stack === null) return [];
  if (!Array.isArray(stack)) throw new StackInputError('Stack should be array');
  return stack.map((e: unknown): TupleItem => {
    if (!Array.isArray(e) || e.length !== 2) throw new StackInputError('Invalid stack entry format: array of exact 2 elements expected');
    const [type, value] = e as [unknown, unknown];
    switch (type) {
      case 'num':
      case 'number':
      case 'int':
        return { type: 'int', value: parseInteger(value) };
      case 'cell':
      case 'tvm.Cell':
        return { type: 'cell', cell: parseCellValue(value) };
      case 'slice':
      case 'tvm.Slice':
        return { type: 'slice', cell: parseCellValue(value) };
      default:
        throw new StackInputError(`Unsupported stack entry type: ${String(type)}`);
    }
  });
}

/** The v3 input stack (`{type, value}` with num, cell, slice; anything else is TON Center's 500). */
export function parseV3Stack(stack: unknown): TupleItem[] {
  if (stack === undefined || stack === null) return [];
  if (!Array.isArray(stack)) throw new StackInputError('stack should be an array');
  return stack.map((e: unknown): TupleItem => {
    const o = (typeof e === 'object' && e !== null ? e : {}) as { type?: unknown; value?: unknown };
    switch (o.type) {
      case 'num':
        return { type: 'int', value: parseInteger(o.value) };
      case 'cell':
        return { type: 'cell', cell: parseCellValue(o.value) };
      case 'slice':
        return { type: 'slice', cell: parseCellValue(o.value) };
      default:
        throw new StackInputError(`unsupported stack parameter type: ${String(o.type)}`);
    }
  });
}

/** The empty input stack most get-methods are called with (`seqno`, `get_wallet_data`), serialized once. */
const EMPTY_STACK_B64 = serializeStackB64([]);

/** TVM values as the base64 `VmStack` BOC a get-method job takes. */
export function stackToB64(items: TupleItem[]): string {
  return items.length === 0 ? EMPTY_STACK_B64 : serializeStackB64(items);
}

/** The emulator's output `VmStack` BOC as TVM values. */
export function stackFromB64(b64: string): TupleItem[] {
  return parseTuple(Cell.fromBase64(b64));
}

/** tonlib's list rule: null, or a 2-tuple whose second item is a list. */
function isList(item: TupleItem): boolean {
  let cur = item;
  for (let depth = 0; depth < 100_000; depth++) {
    if (cur.type === 'null') return true;
    if (cur.type !== 'tuple' || cur.items.length !== 2) return false;
    cur = cur.items[1]!;
  }
  return false;
}

function listItems(item: TupleItem): TupleItem[] {
  const out: TupleItem[] = [];
  let cur = item;
  while (cur.type === 'tuple') {
    out.push(cur.items[0]!);
    cur = cur.items[1]!;
  }
  return out;
}

/** ton-http-api's legacy cell object (tvm_valuetypes `Cell.serialize_to_object`). */
export interface LegacyCellObject {
  data: { b64: string; len: number };
  refs: LegacyCellObject[];
  special: boolean;
}

function legacyObject(c: Cell): LegacyCellObject {
  const len = c.bits.length;
  const bytes = Buffer.alloc(Math.ceil(len / 8));
  for (let i = 0; i < len; i++) if (c.bits.at(i)) bytes[i >> 3]! |= 1 << (7 - (i & 7));
  return { data: { b64: bytes.toString('base64'), len }, refs: c.refs.map(legacyObject), special: c.isExotic };
}

/** A value as a tonlib `tvm.StackEntry` object (elements of v2 tuples and lists). */
export function tonlibEntry(item: TupleItem): Record<string, unknown> {
  switch (item.type) {
    case 'int':
      return { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: item.value.toString() } };
    case 'cell':
      return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: boc(item.cell) } };
    case 'slice':
      return { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: boc(item.cell) } };
    case 'null':
    case 'tuple':
      if (isList(item)) return { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: listItems(item).map(tonlibEntry) } };
      return { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: (item as { items: TupleItem[] }).items.map(tonlibEntry) } };
    default:
      return { '@type': 'tvm.stackEntryUnsupported' };
  }
}

export type V2StackEntry = [string, unknown];

/** An output stack as ton-http-api renders it (`result.stack`). */
export function renderV2Stack(items: readonly TupleItem[]): V2StackEntry[] {
  return items.map((item): V2StackEntry => {
    switch (item.type) {
      case 'int':
        return ['num', pythonHex(item.value)];
      case 'cell':
      case 'slice':
        return ['cell', { bytes: boc(item.cell), object: legacyObject(item.cell) }];
      case 'null':
      case 'tuple': {
        const e = tonlibEntry(item);
        return e['@type'] === 'tvm.stackEntryList' ? ['list', e.list] : ['tuple', e.tuple];
      }
      default:
        // tonlib has no object for builders, continuations or NaN (`tvm.stackEntryUnsupported`).
        return ['unsupported', { '@type': 'tvm.stackEntryUnsupported' }];
    }
  });
}

export interface V3StackEntry {
  type: string;
  value: unknown;
}

/** An output stack as ton-index-go renders it (`POST /api/v3/runGetMethod`). */
export function renderV3Stack(items: readonly TupleItem[]): V3StackEntry[] {
  return items.map((item): V3StackEntry => {
    switch (item.type) {
      case 'int':
        return { type: 'num', value: pythonHex(item.value) };
      case 'cell':
        return { type: 'cell', value: boc(item.cell) };
      case 'slice':
        return { type: 'slice', value: boc(item.cell) };
      case 'null':
      case 'tuple':
        return isList(item) ? { type: 'list', value: renderV3Stack(listItems(item)) } : { type: 'tuple', value: renderV3Stack((item as { items: TupleItem[] }).items) };
      default:
        return { type: 'unsupported', value: null };
    }
  });
}
