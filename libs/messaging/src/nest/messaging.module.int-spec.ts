import { Controller, type DynamicModule, Injectable, Module } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { InjectDataSource } from '@nestjs/typeorm';
import { CustomerEvent, type DomainEvent, TOPICS } from '@erp/contracts';
import { createServiceApp, listen } from '@erp/bootstrap';
import { DatabaseModule } from '@erp/database';
import { createLogger, HealthModule } from '@erp/observability';
import { PATIENCE_MS, testKafkaBrokers, testTopicPrefix, waitUntil } from '@erp/testing';
import type { DataSource } from 'typeorm';
import { Outbox } from '../outbox/outbox';
import {
  changeCustomer,
  FAST_CONSUMER,
  startTestDatabase,
  type TestDatabaseHandle,
  waitFor,
} from '../testing/messaging-test-kit';
import { KafkaEventContext } from '../transport/kafka-event-context';
import { KafkaEventTransport } from '../transport/kafka-event-transport';
import { MessagingModule } from './messaging.module';
import { OutboxRelayService } from './outbox-relay.service';

const GROUP = 'messaging-module-test.projection';
/** Events of a customer number ending so make the handler throw, so they end on the dead-letter topic. */
const POISON = 'POISON';
/** The relay's slow paths (its idle poll, its stop deadline for a hung round or flush), put far away. */
const AN_HOUR = 60 * 60_000;
/**
 * The bound on `app.close()` (about 0.1 s on an idle machine): far below the relay's hour, and
 * below the one slow path of shutdown this test cannot move away, the consumer's 10 s wait for a
 * batch that does not end (STOP_WAIT_MS of event-consumer.ts, a constant).
 */
const CLOSE_BOUND_MS = 10_000;

@Injectable()
class CustomerWrites {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly outbox: Outbox,
  ) {}

  change(number: string): Promise<DomainEvent<'CUSTOMER_UPDATED'>> {
    return this.db.transaction(async (tx) => this.outbox.add(tx, await changeCustomer(tx, '1000001', number)));
  }
}

@Controller()
class CustomerProjection {
  readonly seen: string[] = [];

  @EventPattern<string>(TOPICS.customers, { groupId: GROUP, eventTypes: ['CUSTOMER_UPDATED'] })
  async onCustomer(@Payload() event: CustomerEvent, @Ctx() context: KafkaEventContext): Promise<void> {
    if (event.subject.endsWith(POISON)) throw new Error('this handler refuses the poison customer');
    await context.getManager().query(`INSERT INTO test_effects (consumer_group, event_id, note) VALUES ($1, $2, $3)`, [
      GROUP,
      event.id,
      event.data.version,
    ]);
    this.seen.push(`${event.subject}@${event.data.version}`);
  }
}

@Module({})
class TestAppModule {
  static forRoot(url: string, topicPrefix: string): DynamicModule {
    return {
      module: TestAppModule,
      imports: [
        DatabaseModule.forRoot({ url, entities: [], migrations: [], applicationName: 'messaging-module-test' }),
        HealthModule.forRoot(),
        MessagingModule.forRoot({
          brokers: testKafkaBrokers(),
          clientId: 'messaging-module-test',
          topicPrefix,
          logLevel: 'nothing',
          // Commits wake the relay (NOTIFY) and stop() ends its waits: with the fallbacks an hour
          // away, the events below arriving and the prompt shutdown show those, not the fallbacks.
          relay: { pollIntervalMs: AN_HOUR, shutdownFlushTimeoutMs: AN_HOUR },
          // Two quick attempts, so the poison event is dead-lettered within the test.
          consumers: { ...FAST_CONSUMER, maxAttempts: 2, retry: { initialMs: 50, maxMs: 100 } },
        }),
      ],
      controllers: [CustomerProjection],
      providers: [CustomerWrites],
    };
  }
}

describe('MessagingModule in a Nest service', () => {
  let db: TestDatabaseHandle;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    db = await startTestDatabase('messaging_module');
    app = await createServiceApp(TestAppModule.forRoot(db.database.url, testTopicPrefix('messaging-module')), {
      logger: createLogger({ service: 'messaging-module-test', level: process.env['TEST_LOG_LEVEL'] ?? 'silent' }),
      errorFamily: 'v1',
    });
    url = await listen(app, 0, '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('reports Kafka in readiness once the relay’s producer is connected', async () => {
    // Connected, and through its first round under the relay lock.
    await waitFor('the relay to connect', () => app.get(OutboxRelayService).status()?.kafkaConnected === true && app.get(OutboxRelayService).status()?.active === true);
    const response = await fetch(`${url}/health/ready`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { info: Record<string, { status: string }> };
    expect(body.info['kafka']).toMatchObject({ status: 'up', active: true });
  });

  it('reports the outbox backlog and its age on the very first scrape', async () => {
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(text).toMatch(/^outbox_pending_events\{service="messaging-module-test"\} \d+$/m);
    expect(text).toMatch(/^outbox_oldest_pending_age_seconds\{service="messaging-module-test"\} [\d.]+$/m);
  });

  it('carries events from Outbox.add through the relay to an @EventPattern handler, in order', async () => {
    const writes = app.get(CustomerWrites);
    const projection = app.get(CustomerProjection);
    await app.get(KafkaEventTransport).ready(GROUP);
    const versions: string[] = [];
    for (let i = 0; i < 5; i++) versions.push((await writes.change('NEST-1')).data.version);
    await waitFor('the projection to see all five', () => projection.seen.length === 5);
    expect(projection.seen).toEqual(versions.map((v) => `NEST-1@${v}`));
    const [row] = await db.dataSource.query(`SELECT count(*)::int AS n FROM test_effects WHERE consumer_group = $1`, [GROUP]);
    expect(row.n).toBe(5);
    expect(app.get(KafkaEventTransport).consumerStatuses()).toEqual([
      expect.objectContaining({ groupId: GROUP, joined: true, handled: 5, deadLettered: 0 }),
    ]);
  });

  it('counts what a group dead-letters on /metrics (kafka_consumer_dead_letters_total)', async () => {
    const series = `kafka_consumer_dead_letters_total{group="${GROUP}"}`;
    const scrape = async () => {
      const line = (await (await fetch(`${url}/metrics`)).text()).split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    expect(await scrape()).toBe(0);
    await app.get(CustomerWrites).change(`NEST-${POISON}`);
    await waitFor('the poison event to be dead-lettered', () =>
      app.get(KafkaEventTransport).consumerStatuses().some((s) => s.groupId === GROUP && s.deadLettered === 1),
    );
    expect(await scrape()).toBe(1);
  });

  it('shuts down promptly, ending the relay’s session and leaving the consumer group', async () => {
    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(CLOSE_BOUND_MS);
    // The relay ended its session; the server's backend leaves pg_stat_activity a moment after the
    // client's Terminate message (longer on a loaded machine), so the count is polled.
    const relaySessions = async () =>
      ((await db.dataSource.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE '%outbox-relay%'`,
      )) as Array<{ n: number }>)[0]?.n;
    await waitUntil('the relay\'s session to leave pg_stat_activity', async () => (await relaySessions()) === 0, PATIENCE_MS, 50);
    expect(await relaySessions()).toBe(0);
    // The transport stopped its consumers (they left the group) and forgot them.
    expect(app.get(KafkaEventTransport).consumerStatuses()).toEqual([]);
  });
});
