import type { TopicReader } from '@erp/testing';
import { outboxEvents, query } from '../cases/crash-database';
import type { Harness } from './system';

/**
 * What a failed wait on the event flow needs to be understood from a CI log alone (the services run
 * quiet): per service, its outbox (published or not, the last relay error), what it recorded as
 * consumed, its readiness answer and the last lines it logged; and what the test's own reader saw
 * on the topics.
 */
export async function eventFlowReport(h: Harness, company: string, reader?: TopicReader): Promise<string> {
  const lines: string[] = [];
  const outbox = await outboxEvents(h.system.databaseUrls, company).catch(() => []);
  for (const [service, url] of Object.entries(h.system.databaseUrls)) {
    const mine = outbox.filter((event) => event.service === service);
    const published = mine.filter((event) => event.published).length;
    const relayErrors = await query<{ last_error: string }>(url, `SELECT last_error FROM outbox WHERE last_error IS NOT NULL ORDER BY sequence DESC LIMIT 1`).catch(() => []);
    const consumed = await query<{ consumer_group: string; topic: string; n: string }>(
      url,
      `SELECT consumer_group, topic, count(*)::text AS n FROM processed_events GROUP BY 1, 2 ORDER BY 1, 2`,
    ).catch(() => []);
    const ready = await fetch(`${h.system.serviceUrls[service]}/health/ready`, { signal: AbortSignal.timeout(5_000) })
      .then(async (response) => `${response.status} ${await response.text()}`)
      .catch((error: unknown) => `unreachable (${String(error)})`);
    lines.push(
      `${service}: outbox ${published}/${mine.length} published${relayErrors[0] ? `, last relay error: ${relayErrors[0].last_error}` : ''}`,
      `  consumed: ${consumed.map((row) => `${row.consumer_group} ${row.topic} ${row.n}`).join('; ') || 'nothing'}`,
      `  ready: ${ready.slice(0, 600)}`,
    );
    const output = h.system.processes.find((process) => process.name === service)?.recentOutput().trim();
    if (output) lines.push(`  last output:\n${output.split('\n').slice(-30).map((line) => `    ${line}`).join('\n')}`);
  }
  if (reader) {
    const byTopic = new Map<string, number>();
    for (const message of reader.messages) byTopic.set(message.topic, (byTopic.get(message.topic) ?? 0) + 1);
    lines.push(`test reader: ${[...byTopic].map(([topic, n]) => `${topic} ${n}`).join('; ') || 'nothing received'}`);
  }
  return lines.join('\n');
}

/** Runs a wait; when it fails, the error carries the event-flow report. */
export async function withEventFlowReport<T>(h: Harness, company: string, reader: TopicReader | undefined, wait: () => Promise<T>): Promise<T> {
  try {
    return await wait();
  } catch (error) {
    const report = await eventFlowReport(h, company, reader).catch((reportError: unknown) => `(no report: ${String(reportError)})`);
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${report}`, { cause: error });
  }
}
