import type { Consumer, IncomingMessage, OutgoingMessage, Producer } from '../../shared/bus/bus.js';
import { encodeTraceActionsText } from '../../shared/contracts/actions.js';
import { type TraceJson, decodeTrace } from '../../shared/contracts/trace.js';
import { isRetryable } from '../../shared/runtime/errors.js';
import type { Logger } from '../../shared/runtime/logger.js';
import { retry } from '../../shared/runtime/retry.js';
import type { Store } from '../../shared/store/store.js';
import type { ActionTableRow } from '../../shared/store/tables/actions.js';
import { createClassifier } from '../../shared/ton/actions/index.js';
import type { InterfaceRepository } from '../../shared/ton/actions/interfaces.js';
import type { ActionRow } from '../../shared/ton/actions/row.js';
import { type MapOutcome, type MappedMessage, type StageCounters, type StageMapper, createTableWriter, runStage } from '../stages/stage.js';
import { Lru } from '../../shared/runtime/lru.js';
import { type ClassifierInput, type ClassifierRead, type ReadOptions, readClassifierInput, readClassifierInputs } from './read.js';

/**
 * The action stage, on the stage runner (stage.ts): completed traces in (trace.ts, published by the trace stage
 * once their rows are stored), actions out. The traces' transactions, messages and bodies come with the trace
 * messages (trace.ts `rows`), else from the store (read.ts), many traces per statement; the accounts' states are
 * read from the store. It classifies each trace (shared/ton/actions), writes the rows to `actions` and publishes
 * them to the actions topic (actions.ts) after they are stored.
 *
 * Restarts and replays: classification is a function of the stored trace, and an action's id a function of its
 * messages, so a replayed trace writes the same (trace_id, action_id) rows again (ReplacingMergeTree keeps one) and
 * publishes the same message again (at-least-once).
 */

/** Pseudo-table of a chunk: the traces' action messages to publish once the chunk's rows are stored. */
export const PUBLISH = '@publish';

/** An entry of {@link PUBLISH}: a trace's actions message (actions.ts), with what `onTrace` reports of it. */
export interface PublishedTrace {
  traceId: string;
  actions: number;
  message: OutgoingMessage;
}
export const ACTION_TABLES = ['actions'] as const;

export interface ActionStageDeps {
  consumer: Consumer;
  store: Store;
  producer: Producer;
  /** The actions topic (actions.ts). */
  actionsTopic: string;
  deadLetter: (msg: IncomingMessage, error: unknown) => Promise<void>;
  logger: Logger;
  counters?: StageCounters;
  /** Called with each trace once its actions are stored and published. */
  onTrace?: (traceId: string, actions: number) => void;
  onBatch?: (info: { traces: number; actions: number; ms: number }) => void;
}

export async function runActionStage(deps: ActionStageDeps): Promise<void> {
  const tableWriter = createTableWriter({ store: deps.store, logger: deps.logger, tables: ACTION_TABLES });
  const onBatch = deps.onBatch;
  await runStage(deps.consumer, {
    mapper: createActionMapper({ store: deps.store }),
    write: async (rows, signal) => {
      const publish = rows.get(PUBLISH);
      rows.delete(PUBLISH);
      await tableWriter(rows, signal);
      if (publish && publish.objects.length > 0) {
        const published = publish.objects as PublishedTrace[];
        const messages = published.map((o) => o.message);
        await retry(() => deps.producer.send(deps.actionsTopic, messages), { what: 'publish actions', signal, logger: deps.logger });
        for (const o of published) deps.onTrace?.(o.traceId, o.actions);
      }
    },
    deadLetter: deps.deadLetter,
    ...(deps.counters ? { counters: deps.counters } : {}),
    ...(onBatch ? { onBatch: (r) => onBatch({ traces: r.messages, actions: r.items, ms: r.ms }) } : {}),
  });
}

/**
 * Traces per read of the stage's inputs (read.ts): the statements of a read cost the same for one trace as for
 * hundreds, and the bus hands the stage up to its batch size of traces at a time. With the read's own cap on
 * transactions per group this bounds what one call holds: the rows of at most this many traces.
 */
export const TRACES_PER_READ = 500;

/**
 * Traces per bus batch the stage asks for (the in-process bus hands over 500 by default; batches stay bounded by
 * bytes too): the stage writes once per batch, and every insert into `actions` makes a part there and in both of its
 * materialized views' tables, whose fixed cost is what inserts cost ClickHouse (bench/RESULTS.md, ingest with the
 * trace and action stages). Reads still go {@link TRACES_PER_READ} at a time.
 */
export const TRACES_PER_BATCH = 2000;

/** Bounds of the stage's rebuilt data BoCs kept between reads (read.ts DataBocCache): entries, and their characters. */
const DATA_CACHE = { entries: 20_000, chars: 32 * 1024 * 1024 } as const;

/**
 * The stage's mapping: trace messages → their action rows (and the actions messages). The runner hands it up to
 * {@link TRACES_PER_READ} traces at a time (`mapMany`), whose inputs are read together (read.ts); each trace is then
 * classified on its own, so one that cannot be decoded or classified is dead-lettered alone.
 */
export function createActionMapper(deps: { store: Store }): StageMapper {
  // One classifier for the stage, consulting the repository of the trace it classifies: building one (every family's
  // matchers) costs many times what classifying a trace does, and its matchers keep no state from one trace to the
  // next. Classifying is synchronous, so the repository in force cannot change under it.
  let repo: InterfaceRepository = NO_INTERFACES;
  const classifier = createClassifier((address) => repo(address));
  const classify = (t: TraceJson, input: ClassifierInput): MappedMessage => {
    repo = input.repo;
    try {
      return mappedTrace(t, classifier.classify(input.trace));
    } finally {
      repo = NO_INTERFACES;
    }
  };
  const dataCache = new Lru<string, string>(DATA_CACHE.entries, 0, Date.now, (boc) => boc.length, DATA_CACHE.chars);
  const readOpts: ReadOptions = { dataCache };
  let reading: Promise<void> = Promise.resolve();
  const mapOne = async (msg: IncomingMessage): Promise<MappedMessage> => {
    const t = decodeTrace(msg);
    return classify(t, await readClassifierInput(deps.store, t, readOpts));
  };
  return {
    depth: TRACES_PER_READ,
    inThread: true,
    close: async () => {},
    map: mapOne,
    async mapMany(msgs): Promise<MapOutcome[]> {
      const outcomes: Array<MapOutcome | undefined> = new Array(msgs.length);
      const traces: TraceJson[] = [];
      const at: number[] = [];
      msgs.forEach((msg, i) => {
        try {
          traces.push(decodeTrace(msg));
          at.push(i);
        } catch (error) {
          outcomes[i] = { ok: false, error };
        }
      });
      // The runner has two calls in flight: their reads go one after the other, so that this call's read runs
      // while the previous call classifies (embedded ClickHouse answers on its own threads meanwhile).
      const previous = reading;
      let done!: () => void;
      reading = new Promise<void>((resolve) => (done = resolve));
      let reads: ClassifierRead[];
      try {
        await previous;
        reads = await readClassifierInputs(deps.store, traces, readOpts);
      } catch (error) {
        // A store that failed (retryable) fails the call: the runner retries the batch. Anything else may be one
        // trace's doing: each is then read on its own, so that only that trace is dead-lettered.
        if (isRetryable(error)) throw error;
        reads = [];
        if (traces.length === 1) reads.push({ ok: false, error });
        else for (const t of traces) {
          try {
            reads.push({ ok: true, input: await readClassifierInput(deps.store, t, readOpts) });
          } catch (e) {
            if (isRetryable(e)) throw e;
            reads.push({ ok: false, error: e });
          }
        }
      } finally {
        done();
      }
      reads.forEach((r, j) => {
        const i = at[j]!;
        if (!r.ok) outcomes[i] = { ok: false, error: r.error };
        else {
          try {
            outcomes[i] = { ok: true, mapped: classify(traces[j]!, r.input) };
          } catch (error) {
            outcomes[i] = { ok: false, error };
          }
        }
      });
      return outcomes as MapOutcome[];
    },
  };
}

const NO_INTERFACES: InterfaceRepository = () => undefined;

/**
 * One trace's rows: its actions as stored, and the actions message published once they are. Each action is
 * serialized once: its text is the row's `details` and, spliced, the message's `actions`.
 */
function mappedTrace(t: TraceJson, rows: ActionRow[]): MappedMessage {
  const texts = rows.map(rowText);
  const published: PublishedTrace = { traceId: t.trace_id, actions: rows.length, message: encodeTraceActionsText(t.trace_id, t.mc_seqno_end, texts) };
  return { rows: { actions: rows.map((r, i) => storedRow(r, texts[i]!)), [PUBLISH]: [published] }, count: rows.length, checkpoint: null };
}

/** A classifier row as stored: the generic columns, and the whole row's JSON in `details`. */
export function tableRow(r: ActionRow): ActionTableRow {
  return storedRow(r, rowText(r));
}

/**
 * The JSON text of the form of `rowToJson` (shared/ton/actions/row.ts) of `r` in one pass: rowToJson makes that form as the parse of this very
 * text (64-bit numbers as decimal strings), and stringifying a parsed JSON value gives its text back unchanged (key
 * order, number and string forms are canonical), so the parse and the second stringify would only cost the stage.
 */
function rowText(r: ActionRow): string {
  return JSON.stringify(r, bigintText);
}

const bigintText = (_key: string, v: unknown): unknown => (typeof v === 'bigint' ? v.toString() : v);

/**
 * {@link tableRow} with the row's JSON text already made (`details`, of its `rowToJson` form: the stage publishes
 * the same text). Apart from tableRow so that `rows.map(tableRow)` cannot pass an index as the text.
 */
function storedRow(r: ActionRow, details: string): ActionTableRow {
  return {
    trace_id: r.trace_id,
    action_id: r.action_id,
    type: r.type,
    success: r.success,
    start_lt: r.start_lt.toString(),
    end_lt: r.end_lt.toString(),
    start_utime: r.start_utime,
    end_utime: r.end_utime,
    mc_seqno_end: r.mc_seqno_end,
    trace_end_lt: r.trace_end_lt.toString(),
    trace_end_utime: r.trace_end_utime,
    trace_mc_seqno_end: r.trace_mc_seqno_end,
    trace_external_hash: r.trace_external_hash,
    trace_external_hash_norm: r.trace_external_hash_norm,
    parent_action_id: r.parent_action_id,
    ancestor_type: r.ancestor_type ?? [],
    tx_hashes: r.tx_hashes,
    accounts: [...new Set(r.accounts)],
    details,
  };
}
