import { parentPort } from 'node:worker_threads';
import { type GetMethodJob, type TransactionJob, TvmExecutor } from './executor.js';

/**
 * One TVM worker thread of pool.ts: an emulator of its own, one job at a time. Messages in:
 * `{id, kind: 'get' | 'tx', job}`; out: `{id, outcome}` or `{id, error}` (the emulator itself failed).
 */

type Request = { id: number; kind: 'get'; job: GetMethodJob } | { id: number; kind: 'tx'; job: TransactionJob };

const port = parentPort;
if (!port) throw new Error('shared/tvm/worker.js runs only as a worker thread');
const executor = await TvmExecutor.create();
port.on('message', (req: Request) => {
  const run = req.kind === 'get' ? executor.runGetMethod(req.job) : executor.runTransaction(req.job);
  run.then(
    (outcome) => port.postMessage({ id: req.id, outcome }),
    (e: unknown) => port.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) }),
  );
});
port.postMessage({ ready: true });
