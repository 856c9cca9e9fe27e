import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describeValidationErrors } from '../envelope/validate-envelope';

/**
 * The internal API: what one service asks of, or tells, another over HTTP when the event that
 * would have told it has not arrived yet (docs/cross-service-reads.md). Only services call it, with
 * a service token for one company (`@erp/auth`); the gateway routes no `/internal` path. Versioned
 * like the topics: a breaking change is a new `/internal/v<n>` beside the old one. Each answer
 * and body is an event contract's class, so a record read here and one learned from an event are
 * applied by the same code.
 */
export const INTERNAL_API_PREFIX = 'internal/v1';

export const INTERNAL_ROUTES = {
  /** customers-v1: `GET` a customer as its latest event carries it (`CustomerEventData`), or 404. */
  customer: { service: 'customers-v1', path: (number: string) => `/${INTERNAL_API_PREFIX}/customers/${encodeURIComponent(number)}` },
  /** supplier-invoices-v1: `GET` an invoice as its latest event carries it (`SupplierInvoiceEventData`), or 404. */
  supplierInvoice: {
    service: 'supplier-invoices-v1',
    path: (referenceNumber: string) => `/${INTERNAL_API_PREFIX}/supplier-invoices/${encodeURIComponent(referenceNumber)}`,
  },
  /**
   * supplier-invoices-v1: `POST` an ATTACHMENT_CREATED event (`AttachmentEvent`) the attachments
   * service has just committed, so the invoice lists the upload before the 201 is answered; 204.
   */
  attachmentEvents: { service: 'supplier-invoices-v1', path: `/${INTERNAL_API_PREFIX}/attachment-events` },
} as const;

/** An internal answer that does not keep its contract: the called service is of another version. */
export class InternalContractError extends Error {
  constructor(what: string, problems: string[]) {
    super(`${what} does not keep its contract: ${problems.join('; ')}`);
    this.name = 'InternalContractError';
  }
}

/** An internal answer read as its contract class, checked as an event's data is (tolerant of added fields). */
export function readInternalBody<T extends object>(cls: new () => T, body: unknown, what: string): T {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InternalContractError(what, ['not a JSON object']);
  const value = plainToInstance(cls, body);
  const errors = validateSync(value, { forbidUnknownValues: false });
  if (errors.length > 0) throw new InternalContractError(what, describeValidationErrors(errors));
  return value;
}
