/**
 * An answer given before, to be sent again as it was: the stored answer of a keyed write
 * (libs/idempotency) that is retried. Thrown like an error so that it ends the request wherever it
 * is found (before the handler, or inside its write transaction, after an upload was streamed); the
 * family filter sends it verbatim: status, the headers it was stored with, the body's bytes.
 */
export class AnswerReplay extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: Buffer,
  ) {
    super(`a stored answer (${status}) sent again`);
    this.name = 'AnswerReplay';
  }
}
