import { createEvent, validateEnvelope } from '../../envelope/validate-envelope';
import { eventTypesOf } from '../../registry/event-registry';
import { SAMPLE_EVENT_DATA } from '../../testing/sample-event-data';
import { TOPICS } from '../../topics/topics';
import { SupplierInvoiceCreated } from '../supplier-invoice-created';
import { AttachmentCreated } from '.';

const attachment = SAMPLE_EVENT_DATA.ATTACHMENT_CREATED;
const invoice = SAMPLE_EVENT_DATA.SUPPLIERINVOICE_CREATED;

function problems(type: string, data: object, topic: string): string[] {
  const event = { ...createEvent({ type: type as 'ATTACHMENT_CREATED', source: 'test', companyId: '1000001', subject: 'x', data: data as never }) };
  const result = validateEnvelope(event, { topic });
  return result.valid ? [] : result.problems;
}

describe('supplier invoice and attachment events', () => {
  it('registers them on their own topics', () => {
    expect(eventTypesOf(TOPICS.supplierInvoices).sort()).toEqual(['SUPPLIERINVOICE_CREATED', 'SUPPLIERINVOICE_UPDATED']);
    expect(eventTypesOf(TOPICS.attachments)).toEqual(['ATTACHMENT_CREATED']);
  });

  it('accepts valid payloads', () => {
    expect(problems(AttachmentCreated.TYPE, attachment, TOPICS.attachments)).toEqual([]);
    expect(problems(SupplierInvoiceCreated.TYPE, invoice, TOPICS.supplierInvoices)).toEqual([]);
    expect(problems(SupplierInvoiceCreated.TYPE, { ...invoice, currencyId: null }, TOPICS.supplierInvoices)).toEqual([]);
    expect(AttachmentCreated.attachmentLink(attachment.id, 2)).toBe(attachment.link);
  });

  it('names every bad field of an attachment event', () => {
    const bad = { ...attachment, id: 'x', revision: 0, endpoint: 'salesOrder', size: 0, sha256: 'ABC', link: '/elsewhere' };
    expect(problems(AttachmentCreated.TYPE, bad, TOPICS.attachments).map((p) => p.split(':')[0]).sort()).toEqual([
      'data.endpoint',
      'data.id',
      'data.link',
      'data.revision',
      'data.sha256',
      'data.size',
    ]);
  });

  it('refuses an amount that is not an exact two-decimal string', () => {
    for (const amount of [1250.5, '1250.5', '1e3', 'abc']) {
      expect(problems(SupplierInvoiceCreated.TYPE, { ...invoice, amount }, TOPICS.supplierInvoices)).toEqual([
        'data.amount: amount must be a decimal string with two decimals',
      ]);
    }
  });
});
