import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SupplierInvoiceCreated } from '@erp/contracts';
import { ApiError } from '@erp/errors';
import { SupplierInvoiceEvents } from '../../events/supplier-invoice-events';
import type { CreateSupplierInvoiceDto } from '../dto/supplier-invoice-write.dto';
import { type SupplierInvoiceRecord, SupplierInvoicesRepository } from '../repository/supplier-invoices.repository';
import { numberedLines, requestedStatus } from '../rules/supplier-invoice-rules';
import type { InvoiceStatus } from '../supplier-invoice.entity';

const MAX_NUMBER_ATTEMPTS = 50;

/** POST /v1/supplierInvoice: header, lines, computed amounts and the SUPPLIERINVOICE_CREATED outbox row, in one transaction. */
@Injectable()
export class CreateSupplierInvoice {
  constructor(
    private readonly invoices: SupplierInvoicesRepository,
    private readonly events: SupplierInvoiceEvents,
  ) {}

  execute(companyId: string, dto: CreateSupplierInvoiceDto): Promise<SupplierInvoiceRecord> {
    const { status } = requestedStatus(dto);
    const lines = numberedLines(dto.invoiceLines ?? []);
    return this.invoices.transaction(async (tx) => {
      const { internalId, referenceNumber } = await this.insertWithNumber(tx, companyId, dto, status);
      await this.invoices.insertLines(tx, internalId, lines);
      const written = await this.invoices.recomputeAmounts(tx, internalId, referenceNumber);
      await this.events.add(tx, SupplierInvoiceCreated.TYPE, { companyId, ...written });
      return written;
    });
  }

  /** The client's number (a duplicate is a 400), or the next free one of the company's sequence. */
  private async insertWithNumber(
    tx: EntityManager,
    companyId: string,
    dto: CreateSupplierInvoiceDto,
    status: InvoiceStatus | undefined,
  ): Promise<{ internalId: string; referenceNumber: string }> {
    if (dto.referenceNumber !== undefined) {
      const internalId = await this.invoices.insert(tx, companyId, dto.referenceNumber, dto, status);
      if (internalId === undefined) {
        throw new ApiError('DuplicateValue', `A supplier invoice with referenceNumber ${dto.referenceNumber} already exists`, {
          fieldProblems: [{ field: 'referenceNumber', message: 'is already in use', code: '0002-InvalidValue' }],
        });
      }
      return { internalId, referenceNumber: dto.referenceNumber };
    }
    // Numbers a client chose may collide with the sequence; skip those rather than fail.
    for (let attempt = 0; attempt < MAX_NUMBER_ATTEMPTS; attempt++) {
      const referenceNumber = await this.invoices.nextReferenceNumber(tx, companyId);
      const internalId = await this.invoices.insert(tx, companyId, referenceNumber, dto, status);
      if (internalId !== undefined) return { internalId, referenceNumber };
    }
    throw new Error('Could not assign a free supplier invoice reference number');
  }
}
