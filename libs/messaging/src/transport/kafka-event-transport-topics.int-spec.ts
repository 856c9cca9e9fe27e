import { Controller, type DynamicModule, Injectable, Module } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp, listen } from '@erp/bootstrap';
import { createEvent, type CustomerEvent, type DomainEvent, type SupplierInvoiceEvent, TOPICS } from '@erp/contracts';
import { DatabaseModule } from '@erp/database';
import { createLogger } from '@erp/observability';
import { testKafkaBrokers, testTopicPrefix } from '@erp/testing';
import { type Kafka, Partitioners, type Producer } from 'kafkajs';
import { EventConsumer } from '../consumer/event-consumer';
import { ensureTopics } from '../kafka/ensure-topics';
import { deadLetterTopicOf, messageKeyOf, prefixedTopic } from '../kafka/topic-names';
import { MessagingModule } from '../nest/messaging.module';
import { customerEvent, FAST_CONSUMER, sleep, startTestDatabase, testKafka, type TestDatabaseHandle, waitFor } from '../testing/messaging-test-kit';
import type { EventPatternExtras } from './event-pattern-extras';
import { KafkaEventTransport } from './kafka-event-transport';

const GROUP = 'topics-test.owners';
/** Handling one customer event takes this long: a burst of them is a backlog of seconds. */
const SLOW_CUSTOMER_MS = 10;

@Injectable()
class Handled {
  readonly customers: string[] = [];
  readonly invoices: string[] = [];
}

/** One group over two topics, as attachments-v1's owners and the webhook publisher have. */
@Controller()
class OwnersController {
  constructor(private readonly handled: Handled) {}

  @EventPattern<string>(TOPICS.customers, { groupId: GROUP } satisfies EventPatternExtras)
  async onCustomer(@Payload() event: CustomerEvent): Promise<void> {
    await sleep(SLOW_CUSTOMER_MS);
    this.handled.customers.push(event.id);
  }

  @EventPattern<string>(TOPICS.supplierInvoices, { groupId: GROUP } satisfies EventPatternExtras)
  async onInvoice(@Payload() event: SupplierInvoiceEvent): Promise<void> {
    this.handled.invoices.push(event.id);
  }
}

@Module({})
class TopicsTestModule {
  static forRoot(url: string, topicPrefix: string, groupsOff: string[] = []): DynamicModule {
    return {
      module: TopicsTestModule,
      imports: [
        DatabaseModule.forRoot({ url, entities: [], migrations: [], applicationName: 'topics-test' }),
        MessagingModule.forRoot({
          brokers: testKafkaBrokers(),
          clientId: 'topics-test',
          topicPrefix,
          logLevel: 'nothing',
          relay: false,
          readinessCheck: false,
          consumerGroupsOff: groupsOff,
          consumers: FAST_CONSUMER,
        }),
      ],
      controllers: [OwnersController],
      providers: [Handled],
    };
  }
}

function invoiceEvent(referenceNumber: string): DomainEvent<'SUPPLIERINVOICE_CREATED'> {
  return createEvent({
    type: 'SUPPLIERINVOICE_CREATED',
    source: 'messaging-tests',
    companyId: '1000001',
    subject: referenceNumber,
    data: {
      referenceNumber,
      documentType: 'Invoice',
      status: 'Open',
      supplierNumber: 'S-1',
      amount: '10.00',
      currencyId: 'NOK',
      version: '1',
      lastModifiedDateTime: '2026-01-31T09:15:00.123',
      link: `/v1/supplierInvoice/${referenceNumber}`,
    },
  });
}

describe('KafkaEventTransport: one Kafka consumer per topic of a group, over real Postgres and Kafka', () => {
  let db: TestDatabaseHandle;
  let kafka: Kafka;
  let producer: Producer;
  const apps: NestFastifyApplication[] = [];

  beforeAll(async () => {
    db = await startTestDatabase('event_topics');
    kafka = testKafka('event-topics-test');
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    await producer?.disconnect();
    await db?.close();
  });

  /** Fresh topics (and their dead-letter topics) under a prefix of the test's own. */
  async function topicsFor(name: string): Promise<{ prefix: string; customers: string; invoices: string }> {
    const prefix = testTopicPrefix(name);
    const customers = prefixedTopic(prefix, TOPICS.customers);
    const invoices = prefixedTopic(prefix, TOPICS.supplierInvoices);
    await ensureTopics(kafka, [customers, invoices, deadLetterTopicOf(customers), deadLetterTopicOf(invoices)]);
    return { prefix, customers, invoices };
  }

  async function startApp(prefix: string, groupsOff: string[] = []): Promise<{ app: NestFastifyApplication; handled: Handled }> {
    const app = await createServiceApp(TopicsTestModule.forRoot(db.database.url, prefix, groupsOff), {
      logger: createLogger({ service: 'topics-test', level: process.env['TEST_LOG_LEVEL'] ?? 'silent' }),
      errorFamily: 'v1',
    });
    await listen(app, 0, '127.0.0.1');
    apps.push(app);
    if (groupsOff.length === 0) await app.get(KafkaEventTransport).ready(GROUP);
    return { app, handled: app.get(Handled) };
  }

  const send = (topic: string, events: DomainEvent[]) =>
    producer.send({ topic, acks: -1, messages: events.map((event) => ({ key: messageKeyOf(event), value: JSON.stringify(event) })) });

  it('handles an invoice event at once while a burst of customer events is still being worked off', async () => {
    const { prefix, customers, invoices } = await topicsFor('event-topics-backlog');
    const { handled } = await startApp(prefix);
    const burst = Array.from({ length: 300 }, (_, i) => customerEvent(`B-${i}`));
    await send(customers, burst);
    await waitFor('the burst to be under way', () => handled.customers.length >= 20);
    const invoice = invoiceEvent('000001');
    const sent = Date.now();
    await send(invoices, [invoice]);
    await waitFor('the invoice event', () => handled.invoices.includes(invoice.id));
    const waited = Date.now() - sent;
    // The burst takes 300 x 10 ms = 3 s or more; the invoice did not wait for it.
    expect(handled.customers.length).toBeLessThan(burst.length);
    expect(waited).toBeLessThan(1_500);
    await waitFor('the rest of the burst', () => handled.customers.length === burst.length);
  });

  it('starts each topic where the group read both topics in one Kafka group before, reading nothing twice', async () => {
    const { prefix, customers, invoices } = await topicsFor('event-topics-carry');
    // The previous release: one Kafka consumer for both topics, in the group's own name.
    const earlierCustomers = [customerEvent('C-1'), customerEvent('C-2')];
    const earlierInvoices = [invoiceEvent('000010')];
    await send(customers, earlierCustomers);
    await send(invoices, earlierInvoices);
    const seenBefore: string[] = [];
    const previous = new EventConsumer({
      kafka,
      dataSource: db.dataSource,
      groupId: GROUP,
      topicPrefix: prefix,
      subscriptions: [
        { topic: TOPICS.customers, handler: async (event) => void seenBefore.push(event.id) },
        { topic: TOPICS.supplierInvoices, handler: async (event) => void seenBefore.push(event.id) },
      ],
      ...FAST_CONSUMER,
    });
    previous.start();
    await waitFor('the previous release to read everything', () => seenBefore.length === 3);
    await previous.stop();

    const laterCustomer = customerEvent('C-3');
    const laterInvoice = invoiceEvent('000011');
    await send(customers, [laterCustomer]);
    await send(invoices, [laterInvoice]);
    const { app, handled } = await startApp(prefix);
    await waitFor('the later events', () => handled.customers.includes(laterCustomer.id) && handled.invoices.includes(laterInvoice.id));
    await sleep(300);
    expect(handled.customers).toEqual([laterCustomer.id]);
    expect(handled.invoices).toEqual([laterInvoice.id]);
    // Carried offsets, not the inbox, kept the earlier events from being read again.
    const statuses = app.get(KafkaEventTransport).consumerStatuses();
    expect(statuses).toHaveLength(2);
    expect(statuses.every((s) => s.groupId === GROUP && s.duplicates === 0)).toBe(true);
    const admin = kafka.admin();
    await admin.connect();
    try {
      const groups = (await admin.describeGroups([`${prefix}${GROUP}.${TOPICS.customers}`, `${prefix}${GROUP}.${TOPICS.supplierInvoices}`])).groups;
      expect(groups.map((g) => g.members.length)).toEqual([1, 1]);
    } finally {
      await admin.disconnect();
    }
  });

  it('runs no consumer of a group listed in KAFKA_CONSUMER_GROUPS_OFF', async () => {
    const { prefix, customers } = await topicsFor('event-topics-off');
    const { app, handled } = await startApp(prefix, [GROUP]);
    await send(customers, [customerEvent('OFF-1')]);
    await sleep(1_000);
    expect(app.get(KafkaEventTransport).consumerStatuses()).toEqual([]);
    expect(handled.customers).toEqual([]);
  });
});
