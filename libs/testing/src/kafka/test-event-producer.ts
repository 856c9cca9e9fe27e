import { Kafka, logLevel, type Producer } from 'kafkajs';
import { testKafkaBrokers } from './test-kafka';

/** The envelope fields a test event needs (see `@erp/contracts` EventEnvelope). */
export interface TestEnvelope {
  id: string;
  type: string;
  companyId: string;
  subject: string;
}

/**
 * Publishes events to the run's Kafka as another service's relay would (value = the envelope
 * JSON, key = `<companyId>:<subject>`): for tests of a service's consumers.
 */
export class TestEventProducer {
  private constructor(private readonly producer: Producer) {}

  static async start(): Promise<TestEventProducer> {
    const kafka = new Kafka({ clientId: 'test-event-producer', brokers: testKafkaBrokers(), logLevel: logLevel.NOTHING });
    const producer = kafka.producer({ allowAutoTopicCreation: true });
    await producer.connect();
    return new TestEventProducer(producer);
  }

  async publish(topic: string, ...events: TestEnvelope[]): Promise<void> {
    await this.producer.send({
      topic,
      acks: -1,
      messages: events.map((event) => ({ key: `${event.companyId}:${event.subject}`, value: JSON.stringify(event) })),
    });
  }

  async stop(): Promise<void> {
    await this.producer.disconnect();
  }
}
