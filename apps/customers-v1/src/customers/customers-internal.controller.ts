import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiParam } from '@nestjs/swagger';
import { CompanyId, InternalRoute } from '@erp/auth';
import { type CustomerEventData, eventDataSchema, INTERNAL_API_PREFIX } from '@erp/contracts';
import { ApiErrors, ApiInternal, ApiJsonResponse } from '@erp/openapi';
import { GetCustomerReference } from './use-cases/get-customer-reference.use-case';

/**
 * customers-v1's internal API (docs/cross-service-reads.md): what other services read when a
 * customer they are given is not in their copy yet (sales orders' customer snapshot, attachments'
 * owners). Its contract is `INTERNAL_ROUTES.customer` in `@erp/contracts`.
 */
@Controller(`${INTERNAL_API_PREFIX}/customers`)
@InternalRoute()
@ApiInternal('v1')
export class CustomersInternalController {
  constructor(private readonly getCustomerReference: GetCustomerReference) {}

  @Get(':number')
  @ApiOperation({
    summary: 'A customer as its latest event carries it',
    description: 'The body of CUSTOMER_CREATED / CUSTOMER_UPDATED at the current version, for a service that has not received that event yet.',
  })
  @ApiParam({ name: 'number', description: 'Customer number', schema: { type: 'string' } })
  @ApiJsonResponse(200, 'The customer', eventDataSchema('CUSTOMER_UPDATED') as object)
  @ApiErrors('v1', 404)
  get(@CompanyId() companyId: string, @Param('number') number: string): Promise<CustomerEventData> {
    return this.getCustomerReference.execute(companyId, number);
  }
}
