/**
 * Thrown by a handler (in a Nest service, by the payload pipe) when the event it was given does
 * not satisfy the handler's payload class. Retrying cannot fix the message, so the consumer
 * dead-letters it at once, with the problems as the reason, instead of spending its attempts.
 */
export class InvalidEventPayloadError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid event: ${problems.join('; ')}`);
    this.name = 'InvalidEventPayloadError';
  }
}
