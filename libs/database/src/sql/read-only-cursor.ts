import { Readable } from 'node:stream';
import type { ClientBase } from 'pg';
import QueryStream from 'pg-query-stream';
import { endReadTransaction } from './end-read';

/** Runs one statement and returns its rows: TypeORM's `DataSource.query`, a pg pool's, or a cursor's connection. */
export type RunSql = <Row>(text: string, values: unknown[]) => Promise<Row[]>;

/** A statement and its values. */
export interface SqlStatement {
  text: string;
  values: unknown[];
}

/** A connection checked out for the cursor, and how to give it back (with the error when it broke). */
export interface CheckedOutConnection {
  client: ClientBase;
  release: (error?: Error) => void;
}

export interface ReadOnlyCursorOptions {
  /** REPEATABLE READ, when the statements before the cursor's must agree with it (a count and its page). */
  repeatableRead?: boolean;
  /** Rows fetched per round trip: few when a row is large, so that memory stays flat whatever the page holds. */
  batchRows: number;
}

/**
 * Opens a read-only transaction on `connection`, runs what `plan` needs first on it (a count, a
 * lookup) and opens a cursor on the statement it returns: the rows of a large list page are then
 * sent as they arrive instead of being held. The transaction is the one the connection binds its
 * timeouts and tenant to (transactionScopedPg refuses a cursor outside one).
 *
 * If `plan` or opening the cursor fails, the transaction is ended and the connection released
 * before the error is thrown; afterwards the returned cursor owns both (`close`, or `body`).
 */
export async function openReadOnlyCursor<Row, Plan extends { statement: SqlStatement }>(
  connection: CheckedOutConnection,
  options: ReadOnlyCursorOptions,
  plan: (run: RunSql) => Promise<Plan>,
): Promise<{ cursor: ReadOnlyCursor<Row>; plan: Plan }> {
  const { client, release } = connection;
  const run: RunSql = async <R>(text: string, values: unknown[]) => (await client.query(text, values)).rows as R[];
  try {
    await client.query(options.repeatableRead ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN READ ONLY');
    const planned = await plan(run);
    const { text, values } = planned.statement;
    const stream = client.query(new QueryStream(text, values, { batchSize: options.batchRows }));
    return { cursor: new ReadOnlyCursor<Row>(stream, () => endReadTransaction(client, release)), plan: planned };
  } catch (error) {
    await endReadTransaction(client, release);
    throw error;
  }
}

/**
 * The rows of a statement read through a cursor in a read-only transaction. Closing it (once,
 * whatever calls it) destroys the cursor, ends the transaction and releases the connection.
 */
export class ReadOnlyCursor<Row> {
  private readonly iterator: AsyncIterator<Row>;
  private closed?: Promise<void>;

  constructor(
    private readonly stream: QueryStream,
    private readonly end: () => Promise<void>,
  ) {
    this.iterator = (stream as AsyncIterable<Row>)[Symbol.asyncIterator]();
  }

  /** The first row, or undefined when the statement returned none; a failure closes the cursor before it is thrown. */
  async first(): Promise<Row | undefined> {
    try {
      const next = await this.iterator.next();
      return next.done ? undefined : next.value;
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /** The rows not read yet (the cursor's own iterator: nothing is added per row). */
  rows(): AsyncIterable<Row> {
    return { [Symbol.asyncIterator]: () => this.iterator };
  }

  /**
   * A response body of `chunks` (rendered from `rows()`), which closes the cursor however it ends:
   * last chunk sent, client gone, database error. An error after the first chunk can only cut the
   * body short (the status line is sent), never make a wrong one.
   */
  body(chunks: AsyncIterable<string>): Readable {
    return Readable.from(closingAfter(chunks, this), { objectMode: false });
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.stream.destroy();
      this.closed = this.end();
    }
    return this.closed;
  }
}

async function* closingAfter(chunks: AsyncIterable<string>, cursor: ReadOnlyCursor<unknown>): AsyncGenerator<string> {
  try {
    yield* chunks;
  } finally {
    await cursor.close();
  }
}
