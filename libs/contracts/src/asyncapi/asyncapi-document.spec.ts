import { readFileSync } from 'node:fs';
import { DiagnosticSeverity, Parser } from '@asyncapi/parser';
import { EVENT_HEADERS } from '../kafka-message/kafka-message';
import { type AsyncApiDoc as Doc, registryCoverageProblems } from './asyncapi-coverage';
import { EVENT_CONSUMERS, TOPIC_PRODUCERS } from '../participants/event-participants';
import { asyncApiDocument } from './asyncapi-document';
import { ASYNCAPI_FILE, asyncApiJson } from './asyncapi-file';

/** The committed file, the one readers and the release record see. */
const committed = (): Doc => JSON.parse(readFileSync(ASYNCAPI_FILE, 'utf8')) as Doc;

describe('the AsyncAPI document of the events (libs/contracts/asyncapi.json)', () => {
  it('is valid AsyncAPI 3.0: @asyncapi/parser reports no error', async () => {
    const diagnostics = await new Parser().validate(readFileSync(ASYNCAPI_FILE, 'utf8'));
    const errors = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(errors).toEqual([]);
  });

  it('is what the contracts generate (after a contract change: npm run contracts:asyncapi)', () => {
    expect(readFileSync(ASYNCAPI_FILE, 'utf8')).toBe(asyncApiJson());
  });

  it('covers every topic and every event type of EVENT_REGISTRY, each sent by its producer', () => {
    expect(registryCoverageProblems(committed())).toEqual([]);
    const operations = Object.values(committed().operations);
    for (const [topic, service] of Object.entries(TOPIC_PRODUCERS)) {
      expect(operations).toContainEqual(expect.objectContaining({ action: 'send', 'x-service': service, title: `${service} sends ${topic}` }));
    }
  });

  it('fails, naming it, for an event type added to the registry but not to the document', () => {
    const doc = committed();
    delete doc.components.messages['SALESORDER_DELETED'];
    delete doc.channels['salesOrders']!.messages['SALESORDER_DELETED'];
    expect(registryCoverageProblems(doc)).toEqual(['event type SALESORDER_DELETED has no message']);
  });

  it('has a receive operation per declared consumer, with its group', () => {
    const doc = asyncApiDocument() as unknown as Doc;
    const received = Object.values(doc.operations).filter((op) => op.action === 'receive');
    expect(received).toHaveLength(EVENT_CONSUMERS.length);
  });

  it("describes the message key, the relay's headers and each type's envelope", () => {
    const message = committed().components.messages['CUSTOMER_UPDATED']!;
    expect(message.payload.properties['type']).toMatchObject({ const: 'CUSTOMER_UPDATED' });
    expect(message.headers.required).toEqual([EVENT_HEADERS.eventId.name, EVENT_HEADERS.eventType.name, EVENT_HEADERS.contentType.name]);
    expect(JSON.stringify(message)).toContain('<companyId>:<subject>');
  });
});
