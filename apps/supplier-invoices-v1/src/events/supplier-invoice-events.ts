import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type DomainEvent, SupplierInvoiceCreated, supplierInvoiceLink, SupplierInvoiceUpdated } from '@erp/contracts';
import { type EventProducer, Outbox } from '@erp/messaging';

interface InvoiceJson {
  referenceNumber: string;
  documentType: SupplierInvoiceCreated.Data['documentType'];
  status: SupplierInvoiceCreated.Data['status'];
  supplier: { number: string };
  currencyId: string | null;
  timeStamp: string;
  lastModifiedDateTime: string;
}

/** An invoice just written: the JSON the API shows and its amount as numeric text (never a float). */
export interface WrittenInvoice {
  json: string;
  amount: string;
}

/**
 * The invoice as its events carry it: the values the API shows at this version. The internal read
 * answers the same (a consumer applies either the same way).
 */
export function supplierInvoiceEventData(written: WrittenInvoice): SupplierInvoiceCreated.Data {
  const invoice = JSON.parse(written.json) as InvoiceJson;
  return {
    referenceNumber: invoice.referenceNumber,
    documentType: invoice.documentType,
    status: invoice.status,
    supplierNumber: invoice.supplier.number,
    amount: written.amount,
    currencyId: invoice.currencyId,
    version: invoice.timeStamp,
    lastModifiedDateTime: invoice.lastModifiedDateTime,
    link: supplierInvoiceLink(invoice.referenceNumber),
  };
}

export type SupplierInvoiceEventType = typeof SupplierInvoiceCreated.TYPE | typeof SupplierInvoiceUpdated.TYPE;

/** An invoice change as its event describes it: the company and the invoice just written. */
export interface SupplierInvoiceChange extends WrittenInvoice {
  companyId: string;
}

/**
 * SUPPLIERINVOICE_CREATED / _UPDATED, added to the outbox in the change's own transaction (after
 * the write, which holds the invoice's row lock, so one invoice's events keep commit order).
 */
@Injectable()
export class SupplierInvoiceEvents implements EventProducer<SupplierInvoiceEventType, SupplierInvoiceChange> {
  constructor(private readonly outbox: Outbox) {}

  add(tx: EntityManager, type: SupplierInvoiceEventType, change: SupplierInvoiceChange): Promise<DomainEvent<SupplierInvoiceEventType>> {
    const data = supplierInvoiceEventData(change);
    return this.outbox.add(tx, {
      type,
      companyId: change.companyId,
      subject: data.referenceNumber,
      // The API shows UTC without a zone; the envelope's time carries it.
      time: `${data.lastModifiedDateTime}Z`,
      data,
    });
  }
}
