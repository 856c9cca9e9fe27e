import type { Readable } from 'node:stream';
import { Body, Controller, Get, Header, HttpCode, Param, Post, Put, Query, UseInterceptors } from '@nestjs/common';
import { CompanyId } from '@erp/auth';
import { V1ValueUnwrapInterceptor } from '@erp/bootstrap';
import { NotFoundError } from '@erp/errors';
import { IfMatch, type IfMatchCondition, Versioned, versioned, type VersionedBody } from '@erp/etag';
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
import { CUSTOMER_STATUSES } from './customer.entity';
import { CreateCustomerDto, UpdateCustomerDto } from './dto/customer-write.dto';
import { CreateCustomer } from './use-cases/create-customer.use-case';
import { GetCustomer } from './use-cases/get-customer.use-case';
import { ListCustomers } from './use-cases/list-customers.use-case';
import { UpdateCustomer } from './use-cases/update-customer.use-case';

const NUMBER_IN_PATH = /^[A-Za-z0-9][A-Za-z0-9._-]{0,29}$/;

/** A number that cannot exist is simply not found; it never reaches SQL. */
function checkNumber(number: string): string {
  if (!NUMBER_IN_PATH.test(number)) throw new NotFoundError(`Customer ${number.slice(0, 40)}`);
  return number;
}

const NUMBER_PARAM = ApiParam({ name: 'customerNumber', description: 'Customer number', schema: { type: 'string' } });

@Controller('v1/customer')
@ApiTags('Customers')
@ApiAuthenticated('v1')
@UseInterceptors(V1ValueUnwrapInterceptor)
export class CustomersController {
  constructor(
    private readonly listCustomers: ListCustomers,
    private readonly getCustomer: GetCustomer,
    private readonly createCustomer: CreateCustomer,
    private readonly updateCustomer: UpdateCustomer,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List customers', description: 'A bare JSON array; every record carries `metadata { totalCount, maxPageSize }`. Unknown query parameters are 400.' })
  @ApiV1Paging('CUSTOMER_MAX_PAGE_SIZE')
  @ApiFilter('name', 'Case-insensitive literal substring of the name (`%` and `_` match themselves). A fragment that matches many customers answers its first request at the cost of counting them, and later ones from counts the service then keeps for it')
  @ApiFilter('status', 'Status', CUSTOMER_STATUSES)
  @ApiFilter('corporateId', 'Corporate id (exact)')
  @ApiFilter('vatRegistrationId', 'VAT registration id (exact)')
  @ApiTimestampFilter('lastModifiedDateTime')
  @ApiTimestampFilter('createdDateTime')
  @ApiJsonResponse(200, 'A page of customers', { type: 'array', items: ref('CustomerListItem') })
  @Header('content-type', JSON_TYPE)
  async list(@CompanyId() companyId: string, @Query() query: Record<string, string | string[] | undefined>): Promise<string | Readable> {
    return this.listCustomers.execute(companyId, query);
  }

  @Get(':customerNumber')
  @ApiOperation({ summary: 'Get a customer' })
  @NUMBER_PARAM
  @ApiJsonResponse(200, 'The customer', 'Customer', ETAG_HEADER)
  @ApiErrors('v1', 404)
  @Header('content-type', JSON_TYPE)
  @Versioned()
  async get(@CompanyId() companyId: string, @Param('customerNumber') number: string): Promise<VersionedBody<string>> {
    const customer = await this.getCustomer.execute(companyId, checkNumber(number));
    return versioned(customer.json, customer.version);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a customer', description: '`number` is assigned from the company sequence when omitted; a duplicate number is 400.' })
  @ApiBody({ schema: ref('CustomerCreate') })
  @ApiJsonResponse(201, 'Created', 'Customer', { ...ETAG_HEADER, ...LOCATION_HEADER })
  @ApiErrors('v1', 415)
  @Header('content-type', JSON_TYPE)
  @Versioned()
  async create(@CompanyId() companyId: string, @Body() dto: CreateCustomerDto): Promise<VersionedBody<string>> {
    const customer = await this.createCustomer.execute(companyId, dto);
    return versioned(customer.json, customer.version, { location: `/v1/customer/${encodeURIComponent(customer.number)}` });
  }

  /** v1 rule: If-Match is optional; when sent and stale the answer is 412 and nothing changes. */
  @Put(':customerNumber')
  @HttpCode(204)
  @ApiOperation({ summary: 'Update a customer', description: 'Only the fields sent change.' })
  @NUMBER_PARAM
  @ApiIfMatch(false)
  @ApiBody({ schema: ref('CustomerUpdate') })
  @ApiResponse({ status: 204, description: 'Updated', headers: ETAG_HEADER })
  @ApiErrors('v1', 404, 412, 415)
  @Versioned()
  async update(
    @CompanyId() companyId: string,
    @Param('customerNumber') number: string,
    @Body() dto: UpdateCustomerDto,
    @IfMatch() ifMatch: IfMatchCondition | undefined,
  ): Promise<VersionedBody<undefined>> {
    const customer = await this.updateCustomer.execute(companyId, checkNumber(number), dto, ifMatch);
    return versioned(undefined, customer.version);
  }
}
