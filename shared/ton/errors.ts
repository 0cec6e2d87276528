/**
 * Decoding failures of BOC and TL-B data. They are never retryable: the same bytes fail the same way,
 * so a pipeline stage sends the message to its dead-letter topic instead of retrying.
 * `code` is stable; `message` names the problem with the byte offset or the TL-B type.
 */
export type DecodeErrorCode =
  | 'BOC_BAD_MAGIC'
  | 'BOC_TRUNCATED'
  | 'BOC_BAD_HEADER'
  | 'BOC_BAD_CRC'
  | 'BOC_BAD_INDEX'
  | 'BOC_BAD_CELL'
  | 'TLB_UNKNOWN_CONSTRUCTOR'
  | 'TLB_UNDERFLOW'
  | 'TLB_INVALID';

export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  readonly retryable = false;
  constructor(
    readonly code: DecodeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function bocError(code: DecodeErrorCode, message: string, offset?: number): DecodeError {
  return new DecodeError(code, offset === undefined ? message : `${message} at byte offset ${offset}`);
}

/** A TL-B level failure: `type` is the TL-B type being loaded when the data did not fit it. */
export function tlbError(code: DecodeErrorCode, type: string, detail: string): DecodeError {
  return new DecodeError(code, `${type}: ${detail}`);
}
