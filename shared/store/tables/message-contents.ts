import { hash44, nullable, type RowOf, table, text } from './columns.js';

/** `message_contents` (0003_messages.sql). Message bodies and init states by cell hash; `decoded` is the JSON of message_content.decoded. */
export const messageContents = table('message_contents', {
  hash: hash44(),
  boc: text(),
  decoded: nullable(text()),
});

export type MessageContentRow = RowOf<typeof messageContents.columns>;

/** Every column of a body or init state: what the gateway reads, and what a transaction document carries of each. */
export const CONTENT_COLUMNS = ['hash', 'boc', 'decoded'] as const satisfies ReadonlyArray<keyof MessageContentRow>;
