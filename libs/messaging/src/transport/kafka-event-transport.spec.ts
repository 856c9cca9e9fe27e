import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { KafkaEventTransport } from './kafka-event-transport';

/** Start-up checks only: every case fails before a consumer would touch Kafka or the database. */
describe('KafkaEventTransport start-up checks', () => {
  const unused = { kafka: {} as Kafka, dataSource: {} as DataSource };
  // A new function each time: Nest marks the function it is given (`isEventHandler`, `next`).
  const handler = () => async () => undefined;

  function listenError(setup: (transport: KafkaEventTransport) => void): unknown {
    const transport = new KafkaEventTransport(unused);
    setup(transport);
    let failure: unknown = 'listen did not call back';
    transport.listen((error) => (failure = error));
    return failure;
  }

  it('refuses an @EventPattern without a consumer group', () => {
    expect(listenError((t) => t.addHandler('erp.customers.customer.v1', handler(), true, {}))).toEqual(
      new Error(`@EventPattern('erp.customers.customer.v1') needs { groupId } in its extras for the Kafka event transport`),
    );
  });

  it('refuses a second handler of one topic (Nest would run both, together, for every type)', () => {
    const error = listenError((t) => {
      t.addHandler('erp.customers.customer.v1', handler(), true, { groupId: 'a' });
      t.addHandler('erp.customers.customer.v1', handler(), true, { groupId: 'b' });
    });
    expect(String(error)).toMatch(/two @EventPattern\('erp.customers.customer.v1'\) handlers/);
  });

  it('refuses a request-reply @MessagePattern', () => {
    expect(String(listenError((t) => t.addHandler('erp.customers.customer.v1', handler(), false, { groupId: 'a' })))).toMatch(
      /@MessagePattern\('erp.customers.customer.v1'\) is not supported/,
    );
  });

  it('refuses eventTypes that are not a list', () => {
    expect(String(listenError((t) => t.addHandler('erp.customers.customer.v1', handler(), true, { groupId: 'a', eventTypes: 'CUSTOMER_CREATED' })))).toMatch(
      /eventTypes must be an array/,
    );
  });

  it('starts nothing for an app without event handlers', () => {
    const transport = new KafkaEventTransport(unused);
    let called = false;
    transport.listen((error) => {
      expect(error).toBeUndefined();
      called = true;
    });
    expect(called).toBe(true);
    expect(transport.consumerStatuses()).toEqual([]);
  });
});
