import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { CompanyId, InternalRoute } from '@erp/auth';
import { eventDataSchema, INTERNAL_API_PREFIX, type SupplierInvoiceEventData } from '@erp/contracts';
import { ApiErrors, ApiInternal, ApiJsonResponse } from '@erp/openapi';
import { GetSupplierInvoiceReference } from './use-cases/get-supplier-invoice-reference.use-case';

/**
 * supplier-invoices-v1's internal read (docs/cross-service-reads.md): what the attachments service
 * reads when an upload names an invoice it has not learned from SUPPLIERINVOICE_CREATED yet. Its
 * contract is `INTERNAL_ROUTES.supplierInvoice` in `@erp/contracts`.
 */
@Controller(`${INTERNAL_API_PREFIX}/supplier-invoices`)
@InternalRoute()
@ApiInternal('v1')
export class SupplierInvoicesInternalController {
  constructor(private readonly getReference: GetSupplierInvoiceReference) {}

  @Get(':referenceNumber')
  @ApiOperation({
    summary: 'A supplier invoice as its latest event carries it',
    description: 'The body of SUPPLIERINVOICE_CREATED / _UPDATED at the current version, for a service that has not received that event yet.',
  })
  @ApiParam({ name: 'referenceNumber', description: 'Reference number', schema: { type: 'string' } })
  @ApiJsonResponse(200, 'The supplier invoice', eventDataSchema('SUPPLIERINVOICE_UPDATED') as object)
  @ApiErrors('v1', 404)
  get(@CompanyId() companyId: string, @Param('referenceNumber') referenceNumber: string): Promise<SupplierInvoiceEventData> {
    return this.getReference.execute(companyId, referenceNumber);
  }
}
