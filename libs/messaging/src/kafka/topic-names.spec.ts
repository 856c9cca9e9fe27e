import { deadLetterTopicOf, messageKeyOf, prefixedTopic, unprefixedTopic } from './topic-names';
import { parseBrokers } from './kafka-client';

describe('topic names and keys', () => {
  it('keys a message by company and aggregate, so one aggregate stays on one partition', () => {
    expect(messageKeyOf({ companyId: '1000001', subject: '10001' })).toBe('1000001:10001');
  });

  it('adds and removes a deployment prefix', () => {
    expect(prefixedTopic('staging.', 'erp.customers.customer.v1')).toBe('staging.erp.customers.customer.v1');
    expect(unprefixedTopic('staging.', 'staging.erp.customers.customer.v1')).toBe('erp.customers.customer.v1');
    expect(unprefixedTopic('', 'erp.customers.customer.v1')).toBe('erp.customers.customer.v1');
  });

  it('dead-letters to <topic>.dlq', () => {
    expect(deadLetterTopicOf('erp.customers.customer.v1')).toBe('erp.customers.customer.v1.dlq');
  });

  it('parses a comma-separated broker list, ignoring blanks', () => {
    expect(parseBrokers(' a:9092, b:9093 ,,')).toEqual(['a:9092', 'b:9093']);
  });
});
