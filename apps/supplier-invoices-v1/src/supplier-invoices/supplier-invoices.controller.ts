import { Body, Controller, Get, Header, HttpCode, Param, Post, Put, Query, UseInterceptors } from '@nestjs/common';
import { CompanyId } from '@erp/auth';
import { V1ValueUnwrapInterceptor } from '@erp/bootstrap';
import { NotFoundError } from '@erp/errors';
import { IfMatch, type IfMatchCondition, Versioned, versioned, type VersionedBody } from '@erp/etag';
import { CreateSupplierInvoiceDto, REFERENCE_NUMBER, UpdateSupplierInvoiceDto } from './dto/supplier-invoice-write.dto';
import { CreateSupplierInvoice } from './use-cases/create-supplier-invoice.use-case';
import { GetSupplierInvoice } from './use-cases/get-supplier-invoice.use-case';
import { ListSupplierInvoices } from './use-cases/list-supplier-invoices.use-case';
import { UpdateSupplierInvoice } from './use-cases/update-supplier-invoice.use-case';
import { ApiBody, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  ApiAuthenticated,
  ApiErrors,
  ApiFilter,
  ApiIfMatch,
  ApiJsonResponse,
  ApiTimestampFilter,
  ApiV1Paging,
  ETAG_HEADER,
  JSON_TYPE,
  LOCATION_HEADER,
  ref,
} from '@erp/openapi';
import { DOCUMENT_TYPES, INVOICE_STATUSES } from './supplier-invoice.entity';


/** A number that cannot exist is simply not found; it never reaches SQL. */
function checkReference(referenceNumber: string): string {
  if (!REFERENCE_NUMBER.test(referenceNumber)) throw new NotFoundError(`Supplier invoice ${referenceNumber.slice(0, 40)}`);
  return referenceNumber;
}

const NUMBER_PARAM = ApiParam({ name: 'documentNumber', description: 'The invoice reference number', schema: { type: 'string' } });

@Controller('v1/supplierInvoice')
@ApiTags('Supplier invoices')
@ApiAuthenticated('v1')
@UseInterceptors(V1ValueUnwrapInterceptor)
export class SupplierInvoicesController {
  constructor(
    private readonly listInvoices: ListSupplierInvoices,
    private readonly getInvoice: GetSupplierInvoice,
    private readonly createInvoice: CreateSupplierInvoice,
    private readonly updateInvoice: UpdateSupplierInvoice,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List supplier invoices', description: 'A bare JSON array; every record carries `metadata { totalCount, maxPageSize }`. Unknown query parameters are 400.' })
  @ApiV1Paging('SUPPLIER_INVOICE_MAX_PAGE_SIZE')
  @ApiFilter('status', 'Status', INVOICE_STATUSES)
  @ApiFilter('supplier', "The supplier's number")
  @ApiFilter('documentType', 'Document type', DOCUMENT_TYPES)
  @ApiTimestampFilter('lastModifiedDateTime')
  @ApiJsonResponse(200, 'A page of supplier invoices', { type: 'array', items: ref('SupplierInvoiceListItem') })
  @Header('content-type', JSON_TYPE)
  async list(@CompanyId() companyId: string, @Query() query: Record<string, string | string[] | undefined>): Promise<string> {
    return this.listInvoices.execute(companyId, query);
  }

  @Get(':documentNumber')
  @ApiOperation({ summary: 'Get a supplier invoice' })
  @NUMBER_PARAM
  @ApiJsonResponse(200, 'The invoice with its lines and attachments', 'SupplierInvoice', ETAG_HEADER)
  @ApiErrors('v1', 404)
  @Header('content-type', JSON_TYPE)
  @Versioned()
  async get(@CompanyId() companyId: string, @Param('documentNumber') documentNumber: string): Promise<VersionedBody<string>> {
    const invoice = await this.getInvoice.execute(companyId, checkReference(documentNumber));
    return versioned(invoice.json, invoice.version);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a supplier invoice', description: '`referenceNumber` is assigned when omitted; amounts are computed from the lines with exact decimals.' })
  @ApiBody({ schema: ref('SupplierInvoiceCreate') })
  @ApiJsonResponse(201, 'Created', 'SupplierInvoice', { ...ETAG_HEADER, ...LOCATION_HEADER })
  @ApiErrors('v1', 415)
  @Header('content-type', JSON_TYPE)
  @Versioned()
  async create(@CompanyId() companyId: string, @Body() dto: CreateSupplierInvoiceDto): Promise<VersionedBody<string>> {
    const invoice = await this.createInvoice.execute(companyId, dto);
    return versioned(invoice.json, invoice.version, { location: `/v1/supplierInvoice/${encodeURIComponent(invoice.referenceNumber)}` });
  }

  /** v1 rule: If-Match is optional; when sent and stale the answer is 412 and nothing changes. */
  @Put(':documentNumber')
  @HttpCode(204)
  @ApiOperation({ summary: 'Update a supplier invoice', description: 'Only the fields sent change; `invoiceLines` replaces all lines.' })
  @NUMBER_PARAM
  @ApiIfMatch(false)
  @ApiBody({ schema: ref('SupplierInvoiceUpdate') })
  @ApiResponse({ status: 204, description: 'Updated', headers: ETAG_HEADER })
  @ApiErrors('v1', 404, 412, 415)
  @Versioned()
  async update(
    @CompanyId() companyId: string,
    @Param('documentNumber') documentNumber: string,
    @Body() dto: UpdateSupplierInvoiceDto,
    @IfMatch() ifMatch: IfMatchCondition | undefined,
  ): Promise<VersionedBody<undefined>> {
    const invoice = await this.updateInvoice.execute(companyId, checkReference(documentNumber), dto, ifMatch);
    return versioned(undefined, invoice.version);
  }
}
