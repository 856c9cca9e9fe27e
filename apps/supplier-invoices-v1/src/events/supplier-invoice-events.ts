import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SupplierInvoiceCreated, supplierInvoiceLink, SupplierInvoiceUpdated } from '@erp/contracts';
import { Outbox } from '@erp/messaging';

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

/**
 * SUPPLIERINVOICE_CREATED / _UPDATED, added to the outbox in the change's own transaction (after
 * the write, which holds the invoice's row lock, so one invoice's events keep commit order).
 */
@Injectable()
export class SupplierInvoiceEvents {
  constructor(private readonly outbox: Outbox) {}

  async created(tx: EntityManager, companyId: string, invoice: WrittenInvoice): Promise<void> {
    await this.add(tx, SupplierInvoiceCreated.TYPE, companyId, invoice);
  }

  async updated(tx: EntityManager, companyId: string, invoice: WrittenInvoice): Promise<void> {
    await this.add(tx, SupplierInvoiceUpdated.TYPE, companyId, invoice);
  }

  private async add(
    tx: EntityManager,
    type: typeof SupplierInvoiceCreated.TYPE | typeof SupplierInvoiceUpdated.TYPE,
    companyId: string,
    invoice: WrittenInvoice,
  ): Promise<void> {
    const data = supplierInvoiceEventData(invoice);
    await this.outbox.add(tx, {
      type,
      companyId,
      subject: data.referenceNumber,
      // The API shows UTC without a zone; the envelope's time carries it.
      time: `${data.lastModifiedDateTime}Z`,
      data,
    });
  }
}
