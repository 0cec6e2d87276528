import { HEADER_SCHEMA_VERSION, type IncomingMessage, type OutgoingMessage } from '../bus/bus.js';
import { NonRetryableError } from '../runtime/errors.js';

/**
 * The actions topic's wire format, version 1: one message per classified trace (key: its trace_id), published by
 * the action stage once the trace's action rows are stored. At-least-once: a replay publishes a trace's actions
 * again, identically (action ids are derived from the trace's messages).
 *
 * value: JSON {@link TraceActionsJson}: each action as the classifier's storage row (reference/actions.md "Storage
 * row"): generic columns and the type's `*_data` composite, 64-bit integers as decimal strings, addresses raw.
 */
export const ACTIONS_SCHEMA_VERSION = '1';

export interface TraceActionsJson {
  trace_id: string;
  mc_seqno_end: number;
  actions: Array<Record<string, unknown> & { action_id: string; type: string; success: boolean }>;
}

export function encodeTraceActions(v: TraceActionsJson): OutgoingMessage {
  return { key: v.trace_id, value: Buffer.from(JSON.stringify(v)), headers: { [HEADER_SCHEMA_VERSION]: ACTIONS_SCHEMA_VERSION } };
}

/**
 * {@link encodeTraceActions} of a trace whose actions are already JSON text (each `JSON.stringify` of an action, as
 * the action stage stores them): the same bytes, without serializing the actions a second time.
 */
export function encodeTraceActionsText(traceId: string, mcSeqnoEnd: number, actionTexts: readonly string[]): OutgoingMessage {
  const value = `{"trace_id":${JSON.stringify(traceId)},"mc_seqno_end":${JSON.stringify(mcSeqnoEnd)},"actions":[${actionTexts.join(',')}]}`;
  return { key: traceId, value: Buffer.from(value), headers: { [HEADER_SCHEMA_VERSION]: ACTIONS_SCHEMA_VERSION } };
}

export function decodeTraceActions(msg: Pick<IncomingMessage, 'headers' | 'value'>): TraceActionsJson {
  const version = msg.headers[HEADER_SCHEMA_VERSION];
  if (version !== ACTIONS_SCHEMA_VERSION) throw new NonRetryableError('ACTIONS_SCHEMA', `actions message has schema version ${version ?? 'none'}, expected ${ACTIONS_SCHEMA_VERSION}`);
  let j: unknown;
  try {
    j = JSON.parse(msg.value.toString('utf8'));
  } catch {
    throw new NonRetryableError('ACTIONS_VALUE', 'actions message value is not JSON');
  }
  const t = j as Partial<TraceActionsJson> | null;
  if (t === null || typeof t !== 'object' || typeof t.trace_id !== 'string' || !Array.isArray(t.actions)) {
    throw new NonRetryableError('ACTIONS_VALUE', 'actions message lacks trace_id or actions');
  }
  return t as TraceActionsJson;
}
