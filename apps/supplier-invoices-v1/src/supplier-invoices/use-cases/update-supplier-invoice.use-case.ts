import { Injectable } from '@nestjs/common';
import { SupplierInvoiceUpdated } from '@erp/contracts';
import { NotFoundError, PreconditionFailedError, ValidationFailedError } from '@erp/errors';
import { type IfMatchCondition, versionsForUpdate } from '@erp/etag';
import { SupplierInvoiceEvents } from '../../events/supplier-invoice-events';
import type { UpdateSupplierInvoiceDto } from '../dto/supplier-invoice-write.dto';
import { type SupplierInvoiceRecord, SupplierInvoicesRepository } from '../repository/supplier-invoices.repository';
import { numberedLines, requestedStatus } from '../rules/supplier-invoice-rules';

/**
 * PUT /v1/supplierInvoice/{referenceNumber}: changes only the fields present; `invoiceLines`, when
 * present, replaces every line. The version check and the header write are one UPDATE; amounts are
 * then recomputed from the lines in the same transaction, with the SUPPLIERINVOICE_UPDATED outbox row.
 */
@Injectable()
export class UpdateSupplierInvoice {
  constructor(
    private readonly invoices: SupplierInvoicesRepository,
    private readonly events: SupplierInvoiceEvents,
  ) {}

  execute(companyId: string, referenceNumber: string, dto: UpdateSupplierInvoiceDto, ifMatch: IfMatchCondition | undefined): Promise<SupplierInvoiceRecord> {
    if (dto.referenceNumber !== undefined && dto.referenceNumber !== referenceNumber) {
      throw ValidationFailedError.of('referenceNumber', 'cannot be changed; it must equal the number in the path');
    }
    const { status, release } = requestedStatus(dto);
    const lines = dto.invoiceLines === undefined ? undefined : numberedLines(dto.invoiceLines);
    return this.invoices.transaction(async (tx) => {
      const internalId = await this.invoices.updateIfMatch(tx, companyId, referenceNumber, versionsForUpdate(ifMatch), { fields: dto, status, release });
      if (internalId === undefined) {
        if (!(await this.invoices.exists(tx, companyId, referenceNumber))) throw new NotFoundError(`Supplier invoice ${referenceNumber}`);
        throw new PreconditionFailedError();
      }
      if (lines !== undefined) await this.invoices.replaceLines(tx, internalId, lines);
      const written = await this.invoices.recomputeAmounts(tx, internalId, referenceNumber);
      await this.events.add(tx, SupplierInvoiceUpdated.TYPE, { companyId, ...written });
      return written;
    });
  }
}
