import { Address, Cell, beginCell, external, storeMessage } from '@ton/core';
import { NonRetryableError } from '../runtime/errors.js';
import { Boc } from '../ton/boc/reader.js';
import { Slice } from '../ton/boc/slice.js';
import { normalizedHash } from '../ton/records/message.js';
import { loadMessage } from '../ton/tlb/Message.js';

/** A message the caller sent that is not a valid inbound external message (a 4xx for the client). */
export class MessageInputError extends NonRetryableError {
  constructor(message: string) {
    super('TVM_BAD_MESSAGE', message);
  }
}

/** A checked `Message Any` with `ext_in_msg_info`, ready to be sent. */
export interface ExternalMessage {
  /** The BOC as sent. */
  boc: Uint8Array;
  hash: Uint8Array;
  /** TEP-467 normalized hash (indexing-semantics §2.2). */
  hashNorm: Uint8Array;
  /** Destination, `wc:hex`. */
  dest: string;
}

/** Base64 (standard or url-safe, padding optional) to bytes; null when it is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  const t = text.trim();
  if (t.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return null;
  return Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/**
 * Reads a base64 BOC of an inbound external message, as a liteserver's `sendMessage` would accept it: one root,
 * `ext_in_msg_info$10` to a standard address, the whole cell read.
 */
export function parseExternalMessage(b64: string): ExternalMessage {
  const bytes = decodeBase64(b64);
  if (!bytes) throw new MessageInputError('failed to parse boc: not base64');
  let boc: Boc;
  try {
    boc = Boc.parse(bytes);
  } catch (e) {
    throw new MessageInputError(`failed to parse boc: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (boc.roots.length !== 1) throw new MessageInputError(`failed to parse boc: expected one root, got ${boc.roots.length}`);
  const root = boc.roots[0]!;
  let m: ReturnType<typeof loadMessage>;
  try {
    m = loadMessage(new Slice(boc, root));
  } catch (e) {
    throw new MessageInputError(`failed to parse message: ${e instanceof Error ? e.message : String(e)}`);
  }
  const info = m.info;
  if (info.type !== 'external-in') throw new MessageInputError('message is not an inbound external message');
  if (info.dest.type !== 'std') throw new MessageInputError('external message destination is not a standard address');
  return {
    boc: bytes,
    hash: boc.hash(root),
    hashNorm: normalizedHash(boc, m, info.destBitsFrom, info.destBitsTo),
    dest: `${info.dest.workchain}:${Buffer.from(info.dest.hash).toString('hex')}`,
  };
}

/** A cell from a base64 BOC the caller sent (estimateFee's body, init_code, init_data). */
export function parseCellInput(b64: string, what: string): Cell {
  const bytes = decodeBase64(b64);
  if (!bytes) throw new MessageInputError(`failed to parse ${what}: not base64`);
  try {
    const cells = Cell.fromBoc(Buffer.from(bytes));
    if (cells.length !== 1) throw new Error(`expected one root, got ${cells.length}`);
    return cells[0]!;
  } catch (e) {
    throw new MessageInputError(`failed to parse ${what}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * The inbound external message tonlib builds for fee estimation (`raw.createQuery`): to `dest`, with the body and,
 * given code or data, a StateInit of them.
 */
export function buildExternalMessage(dest: string, body: Cell, init: { code: Cell | null; data: Cell | null }): string {
  const msg = external({
    to: Address.parseRaw(dest),
    body,
    ...(init.code || init.data ? { init: { code: init.code ?? undefined, data: init.data ?? undefined } } : {}),
  });
  return beginCell().store(storeMessage(msg)).endCell().toBoc().toString('base64');
}
