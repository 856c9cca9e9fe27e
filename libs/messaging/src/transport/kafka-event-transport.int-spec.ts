import {
  type CallHandler,
  Controller,
  type DynamicModule,
  type ExecutionContext,
  Injectable,
  Module,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp, listen } from '@erp/bootstrap';
import { CustomerEvent, CustomerEventData, type DomainEvent, TOPICS } from '@erp/contracts';
import { DatabaseModule } from '@erp/database';
import { createLogger } from '@erp/observability';
import { testKafkaBrokers, testTopicPrefix } from '@erp/testing';
import { type Kafka, Partitioners, type Producer } from 'kafkajs';
import type { Observable } from 'rxjs';
import { DEAD_LETTER_HEADERS } from '../consumer/dead-letter';
import { ensureTopics } from '../kafka/ensure-topics';
import { deadLetterTopicOf, messageKeyOf, prefixedTopic } from '../kafka/topic-names';
import { MessagingModule } from '../nest/messaging.module';
import {
  customerEvent,
  FAST_CONSUMER,
  startTestDatabase,
  testKafka,
  type TestDatabaseHandle,
  TopicReader,
  waitFor,
} from '../testing/messaging-test-kit';
import type { EventPatternExtras } from './event-pattern-extras';
import { KafkaEventContext } from './kafka-event-context';
import { KafkaEventTransport } from './kafka-event-transport';

const GROUP = 'transport-test.projection';

/** What the handlers saw, for the assertions. */
interface Seen {
  subject: string;
  payloadIsDto: boolean;
  dataIsDto: boolean;
  envelopeId: string;
  topic: string;
  partition: number;
  offset: string;
  attempt: number;
}

@Injectable()
class SeenEvents {
  readonly updated: Seen[] = [];
  readonly intercepted: string[] = [];
}

/** Shows Nest's interceptors see events: it records the context type and the pattern. */
@Injectable()
class RecordingInterceptor implements NestInterceptor {
  constructor(private readonly seen: SeenEvents) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    this.seen.intercepted.push(`${context.getType()}:${context.switchToRpc().getContext<KafkaEventContext>().getTopic()}`);
    return next.handle();
  }
}

@Controller()
@UseInterceptors(RecordingInterceptor)
class CustomerProjectionController {
  constructor(private readonly seen: SeenEvents) {}

  @EventPattern<string>(TOPICS.customers, { groupId: GROUP, eventTypes: ['CUSTOMER_UPDATED'] } satisfies EventPatternExtras)
  async onUpdated(@Payload() event: CustomerEvent, @Ctx() context: KafkaEventContext): Promise<void> {
    if (event.subject.startsWith('FAIL-')) throw new Error(`projection refuses ${event.subject} (attempt ${context.getAttempt()})`);
    await context
      .getManager()
      .query(`INSERT INTO test_effects (consumer_group, event_id, note) VALUES ($1, $2, $3)`, [GROUP, event.id, event.data.version]);
    this.seen.updated.push({
      subject: event.subject,
      payloadIsDto: event instanceof CustomerEvent,
      dataIsDto: event.data instanceof CustomerEventData,
      envelopeId: context.getEnvelope().id,
      topic: context.getTopic(),
      partition: context.getPartition(),
      offset: context.getOffset(),
      attempt: context.getAttempt(),
    });
  }

}

@Module({})
class TransportTestModule {
  static forRoot(url: string, topicPrefix: string): DynamicModule {
    return {
      module: TransportTestModule,
      imports: [
        DatabaseModule.forRoot({ url, entities: [], migrations: [], applicationName: 'transport-test' }),
        MessagingModule.forRoot({
          brokers: testKafkaBrokers(),
          clientId: 'transport-test',
          topicPrefix,
          logLevel: 'nothing',
          relay: false,
          readinessCheck: false,
          consumers: { ...FAST_CONSUMER, maxAttempts: 2, retry: { initialMs: 50, maxMs: 100 } },
        }),
      ],
      controllers: [CustomerProjectionController],
      providers: [SeenEvents, RecordingInterceptor],
    };
  }
}

describe('KafkaEventTransport: @EventPattern handlers in a hybrid Nest app, over real Postgres and Kafka', () => {
  const prefix = testTopicPrefix('event-transport');
  const topic = prefixedTopic(prefix, TOPICS.customers);
  let db: TestDatabaseHandle;
  let kafka: Kafka;
  let producer: Producer;
  let deadLetters: TopicReader;
  let app: NestFastifyApplication;
  let seen: SeenEvents;
  let closed = false;

  beforeAll(async () => {
    db = await startTestDatabase('event_transport');
    kafka = testKafka('event-transport-test');
    await ensureTopics(kafka, [topic, deadLetterTopicOf(topic)]);
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    deadLetters = await TopicReader.start([deadLetterTopicOf(topic)], { kafka });
    app = await createServiceApp(TransportTestModule.forRoot(db.database.url, prefix), {
      logger: createLogger({ service: 'transport-test', level: process.env['TEST_LOG_LEVEL'] ?? 'silent' }),
      errorFamily: 'v1',
    });
    await listen(app, 0, '127.0.0.1');
    seen = app.get(SeenEvents);
    await app.get(KafkaEventTransport).ready(GROUP);
  });

  afterAll(async () => {
    if (!closed) await app?.close();
    await deadLetters?.stop();
    await producer?.disconnect();
    await db?.close();
  });

  const send = (...values: Array<DomainEvent | object>) =>
    producer.send({
      topic,
      acks: -1,
      messages: values.map((value) => ({ key: messageKeyOf(value as DomainEvent), value: JSON.stringify(value) })),
    });
  const effects = async (eventId: string) =>
    (await db.dataSource.query(`SELECT count(*)::int AS n FROM test_effects WHERE consumer_group = $1 AND event_id = $2`, [GROUP, eventId]))[0].n;

  it('gives the handler the validated DTO and a context with the transaction, the envelope and the coordinates', async () => {
    const events = [1, 2, 3].map((version) => customerEvent('ORDERED-1', String(version)));
    await send(...events);
    await waitFor('three updates', () => seen.updated.filter((s) => s.subject === 'ORDERED-1').length === 3);
    const mine = seen.updated.filter((s) => s.subject === 'ORDERED-1');
    // One key, one partition: in order, at consecutive offsets, first attempt.
    expect(mine.map((s) => s.envelopeId)).toEqual(events.map((e) => e.id));
    expect(mine.map((s) => BigInt(s.offset) - BigInt(mine[0]!.offset))).toEqual([0n, 1n, 2n]);
    expect(mine.every((s) => s.payloadIsDto && s.dataIsDto && s.topic === TOPICS.customers && s.attempt === 1)).toBe(true);
    expect(new Set(mine.map((s) => s.partition)).size).toBe(1);
    // The handler's write committed with the inbox record.
    for (const event of events) expect(await effects(event.id)).toBe(1);
    const [inbox] = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM processed_events WHERE consumer_group = $1 AND event_id = ANY($2::uuid[])`,
      [GROUP, events.map((e) => e.id)],
    );
    expect(inbox.n).toBe(3);
    expect(seen.intercepted).toContain(`rpc:${TOPICS.customers}`);
  });

  it('gives the handler only the event types its pattern asks for', async () => {
    const created = { ...customerEvent('NEW-1'), type: 'CUSTOMER_CREATED' };
    const updated = customerEvent('NEW-1', '2');
    await send(created, updated);
    await waitFor('the update', () => seen.updated.some((s) => s.envelopeId === updated.id));
    expect(seen.updated.some((s) => s.envelopeId === created.id)).toBe(false);
    expect(await effects(created.id)).toBe(0);
  });

  it('handles a redelivered event once', async () => {
    const event = customerEvent('TWICE-1');
    await send(event);
    await send(event);
    const marker = customerEvent('TWICE-1', '2');
    await send(marker);
    await waitFor('the marker after the copy', () => seen.updated.some((s) => s.envelopeId === marker.id));
    expect(seen.updated.filter((s) => s.envelopeId === event.id)).toHaveLength(1);
    expect(await effects(event.id)).toBe(1);
  });

  it('dead-letters a payload that fails its DTO at once, with the validation problems, and goes on', async () => {
    const before = deadLetters.messages.length;
    const bad = customerEvent('BAD-1');
    const invalid = { ...bad, data: { ...bad.data, status: 'Sleeping' } };
    const next = customerEvent('BAD-1', '2');
    await send(invalid, next);
    await waitFor('the dead letter and the next event', () =>
      deadLetters.messages.length === before + 1 && seen.updated.some((s) => s.envelopeId === next.id),
    );
    const letter = deadLetters.messages[before]!;
    expect(JSON.parse(letter.value!)).toMatchObject({ id: bad.id });
    expect(letter.headers[DEAD_LETTER_HEADERS.reason]).toMatch(/^invalid event: data\.status: status must be one of/);
    expect(letter.headers[DEAD_LETTER_HEADERS.attempts]).toBe('1');
    expect(letter.headers[DEAD_LETTER_HEADERS.consumerGroup]).toBe(GROUP);
    expect(await effects(bad.id)).toBe(0);
  });

  it('retries a handler that throws, then dead-letters it with the error it threw (not a generic one)', async () => {
    const before = deadLetters.messages.length;
    const failing = customerEvent('FAIL-1');
    await send(failing);
    await waitFor('the dead letter', () => deadLetters.messages.length === before + 1);
    expect(deadLetters.messages[before]!.headers).toMatchObject({
      [DEAD_LETTER_HEADERS.reason]: 'handler failed 2 time(s): Error: projection refuses FAIL-1 (attempt 2)',
      [DEAD_LETTER_HEADERS.attempts]: '2',
    });
  });

  it('leaves the group (under its prefixed name) when the app closes', async () => {
    const transport = app.get(KafkaEventTransport);
    expect(transport.consumerStatuses()).toEqual([expect.objectContaining({ groupId: GROUP, joined: true })]);
    const admin = kafka.admin();
    await admin.connect();
    try {
      const members = async () => (await admin.describeGroups([prefixedTopic(prefix, GROUP)])).groups[0]?.members.length;
      expect(await members()).toBe(1);
      await app.close();
      closed = true;
      expect(await members()).toBe(0);
      expect(transport.consumerStatuses()).toEqual([]);
    } finally {
      await admin.disconnect();
    }
  });
});
