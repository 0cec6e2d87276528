import { parentPort, workerData } from 'node:worker_threads';
import { type RowsMapOptions, type TableSchema, decodeMessage } from './decode-block-rows.js';
import type { DecodeReply, DecodeRequest } from './decode-pool.js';
import { blockToRows } from './to-rows.js';

/**
 * Entry of a decode worker thread (see decode-pool.ts): raw-block messages in, rows out, in request order. Errors
 * travel as their name, code, message and retryable flag; the pool rebuilds them on the other side.
 */
const port = parentPort;
if (!port) throw new Error('decode-worker.js runs as a worker thread (services/indexer/decode-pool.ts starts it)');

const data = workerData as { schema?: TableSchema; rows?: RowsMapOptions } | null;
const schema = data?.schema;
const rowsOptions = data?.rows ?? {};

port.on('message', (req: DecodeRequest) => {
  let reply: DecodeReply;
  // Encoded bodies are moved to the stage's thread, not copied.
  const transfer: ArrayBuffer[] = [];
  try {
    const value = Buffer.from(req.value.buffer, req.value.byteOffset, req.value.byteLength);
    const decoded = decodeMessage({ headers: req.headers, value }, blockToRows, schema, rowsOptions);
    for (const chunk of Object.values(decoded.rows)) {
      if (!Array.isArray(chunk) && chunk.body.byteOffset === 0 && chunk.body.byteLength === chunk.body.buffer.byteLength) {
        transfer.push(chunk.body.buffer as ArrayBuffer);
      }
    }
    reply = { id: req.id, ok: true, decoded };
  } catch (e) {
    const err = e as { name?: unknown; code?: unknown; message?: unknown; retryable?: unknown };
    reply = {
      id: req.id,
      ok: false,
      error: {
        name: typeof err.name === 'string' ? err.name : 'Error',
        code: typeof err.code === 'string' ? err.code : 'INTERNAL',
        message: typeof err.message === 'string' ? err.message : String(e),
        retryable: err.retryable === true,
      },
    };
  }
  port.postMessage(reply, transfer);
});
