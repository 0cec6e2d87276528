import { parentPort } from 'node:worker_threads';
import { type GetMethodJob, type TransactionJob, TvmExecutor } from './executor.js';

/**
 * One TVM worker thread of pool.ts: an emulator of its own, one job at a time. Messages in:
 * `{id, kind: 'get' | 'tx', job, config?}`, the job without its configuration, which comes only when it changed
 * (the last one given is kept); out: `{id, outcome}` or `{id, error}` (the emulator itself failed).
 */

type Request = { id: number; config?: string } & ({ kind: 'get'; job: Omit<GetMethodJob, 'config'> } | { kind: 'tx'; job: Omit<TransactionJob, 'config'> });

const port = parentPort;
if (!port) throw new Error('shared/tvm/worker.js runs only as a worker thread');
const executor = await TvmExecutor.create();
let config: string | null = null;
port.on('message', (req: Request) => {
  if (req.config !== undefined) config = req.config;
  if (config === null) {
    port.postMessage({ id: req.id, error: 'no configuration was sent to this worker' });
    return;
  }
  const run = req.kind === 'get' ? executor.runGetMethod({ ...req.job, config }) : executor.runTransaction({ ...req.job, config });
  run.then(
    (outcome) => port.postMessage({ id: req.id, outcome }),
    (e: unknown) => port.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) }),
  );
});
port.postMessage({ ready: true });
