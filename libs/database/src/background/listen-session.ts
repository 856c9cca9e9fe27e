import { Client, type ClientConfig, type Notification } from 'pg';

export interface ListenOptions {
  /**
   * The channel: a lower-case SQL identifier, the string writers give `pg_notify` (or `NOTIFY`).
   * Notifications are delivered at the writer's commit and dropped on its rollback.
   */
  channel: string;
  /**
   * The server and database of the session (a URL or pg settings). It must be a real server
   * session: a transaction-mode pooler (PgBouncer `pool_mode=transaction`) breaks LISTEN and
   * session-level locks alike.
   */
  connection: string | ClientConfig;
  /**
   * The session ended without `stop()` (server restart, network, idle kill). Anything bound to
   * the session (an advisory lock) is gone with it; the loop opens a new one when it next needs it.
   */
  onLost?(error: Error): void;
}

// A channel name goes into `LISTEN <name>` as it is; identifiers only, so it can never be SQL.
// Lower case only: unquoted, Postgres folds the name, while pg_notify('Name') would not.
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertChannelName(channel: string): void {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`LISTEN channel "${channel}" is not a lower-case SQL identifier`);
}

/**
 * One pg session that LISTENs on a channel. It is opened on demand and replaced when lost, never
 * reconnected in place: a session is an identity (its locks, its LISTEN), and code holding the old
 * one must see that it is gone rather than find a new one under the same reference.
 */
export class ListenSession {
  private client?: Client;
  private closed = false;

  constructor(
    private readonly options: ListenOptions,
    private readonly notified: () => void,
  ) {
    assertChannelName(options.channel);
  }

  get channel(): string {
    return this.options.channel;
  }

  /** The open session, if any. */
  get current(): Client | undefined {
    return this.client;
  }

  /** The open session, or a new one that already LISTENs; throws when the server cannot be reached. */
  async open(): Promise<Client> {
    if (this.client) return this.client;
    if (this.closed) throw new Error('the LISTEN session is closed');
    const settings = typeof this.options.connection === 'string' ? { connectionString: this.options.connection } : this.options.connection;
    // Fail fast when the server is down (the loop backs off), and notice a dead peer on an idle session.
    const client = new Client({ connectionTimeoutMillis: 5_000, keepAlive: true, ...settings });
    client.on('notification', (message: Notification) => {
      if (message.channel === this.options.channel) this.notified();
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('database session ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.options.channel}`);
    } catch (error) {
      await quietlyEnd(client);
      throw error;
    }
    // close() ran while connecting: the session must not outlive it.
    if (this.closed) {
      await quietlyEnd(client);
      throw new Error('the LISTEN session is closed');
    }
    this.client = client;
    return client;
  }

  /** Ends the session for good (which releases its LISTEN and any session-level lock). */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    if (client) await quietlyEnd(client);
  }

  private lost(client: Client, error: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    void quietlyEnd(client);
    this.options.onLost?.(error);
  }
}

async function quietlyEnd(client: Client): Promise<void> {
  // Our own end is not a loss; the 'error' listener stays, so a late socket error is never unhandled.
  client.removeAllListeners('end');
  await client.end().catch(() => undefined);
}
