import { join } from 'node:path';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@erp/database';
import { type KafkaDevBroker, startKafkaDevBroker } from '@erp/kafka-dev-broker';
import { parseBrokers } from '@erp/messaging';
import { markdownLine, runOutboxLatencyBench } from './outbox/outbox-latency.bench';

const REPO_ROOT = join(__dirname, '..', '..', '..');

/**
 * `npm run bench:outbox [-- --events=2000 --rate=200 --burst=5000 --writers=8]`
 * Outbox commit -> consumer latency (p50/p99) and events/s, through the in-process Kafka dev
 * broker (or KAFKA_BROKERS) and PostgreSQL (DATABASE_URL's server, else a throw-away embedded
 * one). Prints the result as JSON, then a markdown table row, on stdout; progress on stderr.
 */
async function main(): Promise<void> {
  const args = new Map<string, string>();
  for (const arg of process.argv.slice(2)) {
    const match = /^--([a-z]+)=(\d+)$/.exec(arg);
    if (!match) throw new Error(`unknown argument ${arg} (expected --events=N, --rate=N, --burst=N, --writers=N)`);
    args.set(match[1] as string, match[2] as string);
  }
  const number = (name: string) => (args.has(name) ? Number(args.get(name)) : undefined);
  const log = (line: string) => process.stderr.write(`[bench:outbox] ${line}\n`);

  let embedded: EmbeddedPostgresHandle | undefined;
  let broker: KafkaDevBroker | undefined;
  try {
    let serverUrl = process.env['DATABASE_URL'];
    if (!serverUrl) {
      log('starting a throw-away embedded PostgreSQL');
      embedded = await startEmbeddedPostgres({
        dataDir: join(REPO_ROOT, '.data', `bench-outbox-postgres-${process.pid}`),
        persistent: false,
      });
      serverUrl = embedded.adminUrl;
    }
    let brokers = process.env['KAFKA_BROKERS'] ? parseBrokers(process.env['KAFKA_BROKERS']) : undefined;
    if (!brokers) {
      broker = await startKafkaDevBroker({ port: 0 });
      brokers = broker.brokers;
      log(`Kafka dev broker (in-process) at ${brokers.join(',')}`);
    }
    const result = await runOutboxLatencyBench({
      databaseServerUrl: serverUrl,
      brokers,
      brokerKind: broker ? 'dev-broker' : 'kafka',
      latencyEvents: number('events'),
      rate: number('rate'),
      throughputEvents: number('burst'),
      writers: number('writers'),
      log,
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n${markdownLine(result)}\n`);
  } finally {
    await broker?.stop();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:outbox failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
