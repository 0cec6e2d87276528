import { readFileSync } from 'node:fs';
import { NonRetryableError } from '../../shared/runtime/errors.js';
import { createClassifier, parseCorpusTrace, rowToJson } from '../../shared/ton/actions/index.js';

/**
 * `tonflow classify-trace --format toncenter-corpus FILE.json...`: classifies recorded traces (TON Center's
 * action-corpus format) and prints one JSON line per file, `{"file", "actions": [<storage rows>]}`, or
 * `{"file", "error"}` for a file that cannot be read; only a usage error stops the run (exit 2).
 */
export const CLASSIFY_USAGE = 'usage: tonflow classify-trace --format toncenter-corpus FILE.json...';

const FORMATS = new Set(['toncenter-corpus']);

export class ClassifyUsageError extends NonRetryableError {
  constructor(message: string) {
    super('USAGE', `${message}\n${CLASSIFY_USAGE}`);
  }
}

export function classifyTraceCommand(args: string[], out: (line: string) => void = (l) => process.stdout.write(l)): number {
  let format: string | undefined;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--format') {
      format = args[++i];
      if (format === undefined) throw new ClassifyUsageError('--format needs a value');
    } else if (a.startsWith('--format=')) format = a.slice('--format='.length);
    else if (a.startsWith('-')) throw new ClassifyUsageError(`unknown option ${a}`);
    else files.push(a);
  }
  if (format === undefined) throw new ClassifyUsageError('--format is required');
  if (!FORMATS.has(format)) throw new ClassifyUsageError(`unknown format "${format}" (known: ${[...FORMATS].join(', ')})`);
  if (files.length === 0) throw new ClassifyUsageError('no trace files given');
  for (const file of files) out(JSON.stringify(classifyFile(file)) + '\n');
  return 0;
}

function classifyFile(file: string): { file: string; actions: unknown[] } | { file: string; error: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { file, error: code ? `cannot read file: ${code}` : `not JSON: ${(e as Error).message}` };
  }
  try {
    const { trace, repo } = parseCorpusTrace(doc);
    return { file, actions: createClassifier(repo).classify(trace).map(rowToJson) };
  } catch (e) {
    return { file, error: e instanceof Error ? e.message : String(e) };
  }
}
