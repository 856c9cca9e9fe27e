import type { Connection, Query, QueryResult } from 'pg';

/** The settings statement as WithTransactionSettings sends it. */
export interface SettingsExchange {
  text: string;
  values: string[];
  /** Its name when it is already prepared on this connection (only Bind and Execute are sent); absent: parsed unnamed. */
  name?: string;
}

/**
 * One parameterised statement preceded, in the same extended-protocol exchange, by the statement
 * that sets its transaction's settings: the settings' (Parse,) Bind and Execute, then the
 * statement's own Parse/Bind/Describe/Execute and the Sync that ends their implicit transaction.
 * So a statement sent outside any transaction still runs with its timeouts, role and company set
 * (`is_local`), in one round trip, and behind a transaction-mode pooler both run on one server
 * session.
 *
 * A pg Submittable (pg's documented extension point, the one pg-cursor uses): it sends the
 * settings' messages itself, swallows their answer (no RowDescription is asked for: one DataRow and
 * one CommandComplete), and hands everything after to pg's own `Query`, which builds the result.
 */
export class WithTransactionSettings {
  private settingsAnswered = false;

  constructor(
    private readonly settings: SettingsExchange,
    private readonly statement: Query,
  ) {}

  submit(connection: Connection): void {
    // One write for all of it, as pg's Query does for its own messages (corks nest).
    const socket = (connection as unknown as { stream?: { cork?(): void; uncork?(): void } }).stream;
    socket?.cork?.();
    try {
      const { text, values, name } = this.settings;
      // (@types/pg still lists the `more` flag these once took; pg 8 ignores it.)
      if (name === undefined) connection.parse({ text, name: '', types: [] }, true);
      connection.bind({ statement: name ?? '', values }, true);
      connection.execute({}, true);
      // pg's Query sends its own Parse/Bind/Describe/Execute and the Sync.
      (this.statement as unknown as { submit(connection: Connection): void }).submit(connection);
    } finally {
      socket?.uncork?.();
    }
  }

  handleDataRow(message: unknown): void {
    if (this.settingsAnswered) this.delegate('handleDataRow', message);
  }

  handleCommandComplete(message: unknown, connection: Connection): void {
    if (!this.settingsAnswered) {
      this.settingsAnswered = true;
      return;
    }
    this.delegate('handleCommandComplete', message, connection);
  }

  handleRowDescription(message: unknown): void {
    this.delegate('handleRowDescription', message);
  }

  handleError(error: Error, connection: Connection): void {
    this.delegate('handleError', error, connection);
  }

  handleReadyForQuery(connection: Connection): void {
    this.delegate('handleReadyForQuery', connection);
  }

  handleEmptyQuery(connection: Connection): void {
    this.delegate('handleEmptyQuery', connection);
  }

  handlePortalSuspended(connection: Connection): void {
    this.delegate('handlePortalSuspended', connection);
  }

  handleCopyInResponse(connection: Connection): void {
    this.delegate('handleCopyInResponse', connection);
  }

  handleCopyData(message: unknown, connection: Connection): void {
    this.delegate('handleCopyData', message, connection);
  }

  private delegate(handler: string, ...args: unknown[]): void {
    (this.statement as unknown as Record<string, (...args: unknown[]) => void>)[handler]?.(...args);
  }
}

export type { QueryResult };
