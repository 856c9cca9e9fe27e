import type { Message } from 'kafkajs';
import type { ClientBase } from 'pg';
import { errorMessage, traceCarrierFrom } from '@erp/observability';
import { EVENT_CONTENT_TYPE, EVENT_HEADERS } from '@erp/contracts';
import { kafkaTraceHeaders } from '../../tracing/message-tracing';

const MAX_ERROR_LENGTH = 2_000;

interface OutboxRow {
  id: string;
  topic: string;
  message_key: string;
  event_type: string;
  payload: string;
  created_ms: string;
  trace_context: unknown;
}

/** What a batch is sent with: `sendBatch` of the relay's producer. */
export type SendBatch = (topicMessages: Array<{ topic: string; messages: Message[] }>) => Promise<unknown>;

/**
 * One batch, inside the relay's locked transaction: up to `batchSize` pending rows in sequence
 * order sent in one request, then marked published. A failed send records the attempt on the rows
 * (`attempts`, `last_error`, kept by the caller's commit) and is rethrown. Returns the rows sent.
 */
export async function publishBatch(client: ClientBase, batchSize: number, send: SendBatch): Promise<number> {
  const { rows } = await client.query<OutboxRow>(
    `SELECT id, topic, message_key, event_type, payload::text AS payload,
            (extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms, trace_context
       FROM outbox WHERE published_at IS NULL ORDER BY sequence LIMIT $1`,
    [batchSize],
  );
  if (rows.length === 0) return 0;
  const ids = rows.map((row) => row.id);
  try {
    await send(topicMessagesOf(rows));
  } catch (error) {
    await client
      .query(`UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::uuid[])`, [
        ids,
        errorMessage(error).slice(0, MAX_ERROR_LENGTH),
      ])
      .catch(() => undefined);
    throw error;
  }
  await client.query(
    `UPDATE outbox SET published_at = now(), attempts = attempts + 1, last_error = NULL WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return rows.length;
}

/** Groups rows by topic, keeping sequence order within each topic (and so within each key). */
function topicMessagesOf(rows: OutboxRow[]): Array<{ topic: string; messages: Message[] }> {
  const byTopic = new Map<string, Message[]>();
  for (const row of rows) {
    const messages = byTopic.get(row.topic) ?? [];
    messages.push({
      key: row.message_key,
      value: row.payload,
      timestamp: row.created_ms,
      headers: {
        // The header names are the contract's (@erp/contracts EVENT_HEADERS, in the AsyncAPI document).
        [EVENT_HEADERS.eventId.name]: row.id,
        [EVENT_HEADERS.eventType.name]: row.event_type,
        [EVENT_HEADERS.contentType.name]: EVENT_CONTENT_TYPE,
        // W3C traceparent/tracestate of the change, when it was traced (consumers continue it).
        ...kafkaTraceHeaders(traceCarrierFrom(row.trace_context)),
      },
    });
    byTopic.set(row.topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}
