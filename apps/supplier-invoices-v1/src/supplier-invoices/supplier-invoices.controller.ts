import { Body, Controller, Get, HttpCode, Param, Post, Put, Query, Res, UseInterceptors } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CompanyId } from '@erp/auth';
import { V1ValueUnwrapInterceptor } from '@erp/bootstrap';
import { NotFoundError } from '@erp/errors';
import { formatEtag, IfMatch, type IfMatchCondition } from '@erp/etag';
import { CreateSupplierInvoiceDto, REFERENCE_NUMBER, UpdateSupplierInvoiceDto } from './dto/supplier-invoice-write.dto';
import { SupplierInvoicesService } from './supplier-invoices.service';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A number that cannot exist is simply not found; it never reaches SQL. */
function checkReference(referenceNumber: string): string {
  if (!REFERENCE_NUMBER.test(referenceNumber)) throw new NotFoundError(`Supplier invoice ${referenceNumber.slice(0, 40)}`);
  return referenceNumber;
}

@Controller('v1/supplierInvoice')
@UseInterceptors(V1ValueUnwrapInterceptor)
export class SupplierInvoicesController {
  constructor(private readonly invoices: SupplierInvoicesService) {}

  @Get()
  async list(
    @CompanyId() companyId: string,
    @Query() query: Record<string, string | string[] | undefined>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    reply.type(JSON_TYPE);
    return this.invoices.list(companyId, query);
  }

  @Get(':documentNumber')
  async get(
    @CompanyId() companyId: string,
    @Param('documentNumber') documentNumber: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const invoice = await this.invoices.get(companyId, checkReference(documentNumber));
    reply.type(JSON_TYPE).header('etag', formatEtag(invoice.version));
    return invoice.json;
  }

  @Post()
  @HttpCode(201)
  async create(
    @CompanyId() companyId: string,
    @Body() dto: CreateSupplierInvoiceDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const invoice = await this.invoices.create(companyId, dto);
    reply
      .type(JSON_TYPE)
      .header('etag', formatEtag(invoice.version))
      .header('location', `/v1/supplierInvoice/${encodeURIComponent(invoice.referenceNumber)}`);
    return invoice.json;
  }

  /** v1 rule: If-Match is optional; when sent and stale the answer is 412 and nothing changes. */
  @Put(':documentNumber')
  @HttpCode(204)
  async update(
    @CompanyId() companyId: string,
    @Param('documentNumber') documentNumber: string,
    @Body() dto: UpdateSupplierInvoiceDto,
    @IfMatch() ifMatch: IfMatchCondition | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const invoice = await this.invoices.update(companyId, checkReference(documentNumber), dto, ifMatch);
    reply.header('etag', formatEtag(invoice.version));
  }
}
