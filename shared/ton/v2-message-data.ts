import { Boc } from './boc/reader.js';

/**
 * A message body as tonlib presents it in `raw.message` (tonlib_api.tl `msg.Data`), which TON Center's v2 passes on:
 * a body that starts with op 0 (text comment) or op 1 (encrypted comment) followed by a whole snake string is
 * `msg.dataText` / `msg.dataEncryptedText` with the string's bytes; any other body is `msg.dataRaw` with the body and
 * init state BOCs. The v2 server adds `message`: for raw bodies the base64 of the root cell's data bytes (bits past
 * the cell's length zeroed) and a newline, as the Python server printed it; for text the text itself.
 */

export type V2MsgData =
  | { '@type': 'msg.dataRaw'; body: string; init_state: string }
  | { '@type': 'msg.dataText'; text: string }
  | { '@type': 'msg.dataEncryptedText'; text: string };

/** tonlib's CellString limits (crypto/vm/cells/CellString.h): 1024 bytes in at most 16 cells. */
const MAX_BYTES = 1024;
const MAX_CHAIN = 16;

export function v2MessageData(bodyBoc: string, initStateBoc: string): { msg_data: V2MsgData; message: string } {
  const bytes = Buffer.from(bodyBoc, 'base64');
  let boc: Boc;
  try {
    boc = Boc.parse(bytes);
  } catch {
    // No body cell to read (a body the store does not hold): raw, as given.
    return { msg_data: { '@type': 'msg.dataRaw', body: bodyBoc, init_state: initStateBoc }, message: '' };
  }
  const root = boc.root;
  const text = commentBytes(boc, root);
  if (text) {
    const type = text.op === 0 ? 'msg.dataText' : 'msg.dataEncryptedText';
    return { msg_data: { '@type': type, text: text.bytes.toString('base64') }, message: text.bytes.toString('utf8') };
  }
  const data = cellBytes(boc, root, 0, boc.bitLen[root]!);
  return {
    msg_data: { '@type': 'msg.dataRaw', body: bodyBoc, init_state: initStateBoc },
    message: data.length === 0 ? '' : data.toString('base64') + '\n',
  };
}

/** Bits [from, to) of a cell's data as bytes, the bits past `to` in the last byte zeroed; `from` is byte-aligned. */
function cellBytes(boc: Boc, cell: number, from: number, to: number): Buffer {
  const off = boc.dataOff[cell]!;
  const out = Buffer.from(boc.bytes.subarray(off + from / 8, off + Math.ceil(to / 8)));
  const tail = to % 8;
  if (tail !== 0 && out.length > 0) out[out.length - 1]! &= (0xff << (8 - tail)) & 0xff;
  return out;
}

/**
 * `op:uint32` 0 or 1 then a snake string (CellString::load): each cell's bits whole bytes, at most one reference,
 * which continues the string. Null when the body is anything else.
 */
function commentBytes(boc: Boc, root: number): { op: number; bytes: Buffer } | null {
  if (boc.isExotic(root) || boc.bitLen[root]! < 32) return null;
  const off = boc.dataOff[root]!;
  const op = ((boc.bytes[off]! << 24) | (boc.bytes[off + 1]! << 16) | (boc.bytes[off + 2]! << 8) | boc.bytes[off + 3]!) >>> 0;
  if (op > 1) return null;
  const parts: Buffer[] = [];
  let total = 0;
  let cell = root;
  let from = 32;
  for (let n = 0; ; n++) {
    if (n >= MAX_CHAIN || boc.isExotic(cell)) return null;
    const bits = boc.bitLen[cell]! - from;
    if (bits % 8 !== 0 || boc.refCount(cell) > 1) return null;
    total += bits / 8;
    if (total > MAX_BYTES) return null;
    parts.push(cellBytes(boc, cell, from, boc.bitLen[cell]!));
    if (boc.refCount(cell) === 0) break;
    cell = boc.ref(cell, 0);
    from = 0;
  }
  return { op, bytes: Buffer.concat(parts) };
}
