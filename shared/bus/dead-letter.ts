import { errorCode } from '../runtime/errors.js';
import {
  HEADER_ERROR_CODE,
  HEADER_ERROR_MESSAGE,
  HEADER_SOURCE_OFFSET,
  HEADER_SOURCE_PARTITION,
  HEADER_SOURCE_TOPIC,
  type IncomingMessage,
  type OutgoingMessage,
  type Producer,
} from './bus.js';

/**
 * Longest `x-error-message` kept, in UTF-16 code units. Error messages can embed whole payloads (a BOC in hex);
 * the header is for a human triaging the dead-letter topic, the full story is in the logs.
 */
export const DEAD_LETTER_MESSAGE_MAX = 1024;

/**
 * Republishes a message that cannot be processed (a poison message: its handler failed with a non-retryable error)
 * to `dlqTopic`, so that its partition can move on (house style: `*.dlq` topics). Key and value are unchanged, so
 * the message can be replayed as it was; the original headers are kept (including `x-schema-version`), and the
 * error and origin are added: `x-error-code`, `x-error-message` (truncated to {@link DEAD_LETTER_MESSAGE_MAX}),
 * `x-source-topic`, `x-source-partition`, `x-source-offset`. These win over original headers of the same name, so a
 * dead letter that is dead-lettered again names its latest origin.
 *
 * Resolves once the bus has the message: the caller may then commit the source offset.
 */
export async function deadLetter(producer: Producer, dlqTopic: string, msg: IncomingMessage, error: unknown): Promise<void> {
  await producer.send(dlqTopic, [
    {
      key: msg.key,
      value: msg.value,
      headers: {
        ...msg.headers,
        [HEADER_ERROR_CODE]: errorCode(error),
        [HEADER_ERROR_MESSAGE]: truncate(error instanceof Error ? error.message : String(error), DEAD_LETTER_MESSAGE_MAX),
        [HEADER_SOURCE_TOPIC]: msg.topic,
        [HEADER_SOURCE_PARTITION]: String(msg.partition),
        [HEADER_SOURCE_OFFSET]: msg.offset,
      },
    },
  ]);
}

/**
 * A message that is refused before it is ever published (the follower's verification rejected its block) as its
 * dead letter: the message as it would have been sent, plus `x-error-code` and `x-error-message`. It has no
 * source topic, partition or offset, so those headers are absent.
 */
export function rejectedMessage(msg: OutgoingMessage, error: unknown): OutgoingMessage {
  return {
    key: msg.key,
    value: msg.value,
    headers: {
      ...msg.headers,
      [HEADER_ERROR_CODE]: errorCode(error),
      [HEADER_ERROR_MESSAGE]: truncate(error instanceof Error ? error.message : String(error), DEAD_LETTER_MESSAGE_MAX),
    },
  };
}

/** Cuts `s` to at most `max` code units, ending with "…" when cut, never splitting a surrogate pair. */
function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}
