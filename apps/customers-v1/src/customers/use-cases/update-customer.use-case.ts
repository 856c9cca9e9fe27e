import { Injectable } from '@nestjs/common';
import { NotFoundError, PreconditionFailedError, ValidationFailedError } from '@erp/errors';
import { type IfMatchCondition, versionsForUpdate } from '@erp/etag';
import type { UpdateCustomerDto } from '../dto/customer-write.dto';
import { type CustomerRecord, CustomersRepository } from '../repository/customers.repository';
import { CustomerEvents } from '../../events/customer-events';

/**
 * PUT /v1/customer/{number}: changes only the fields present. The version check and the write are
 * one conditional UPDATE; when it matches nothing the answer is 404 (absent) or 412 (stale).
 */
@Injectable()
export class UpdateCustomer {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly events: CustomerEvents,
  ) {}

  execute(companyId: string, number: string, dto: UpdateCustomerDto, ifMatch: IfMatchCondition | undefined): Promise<CustomerRecord> {
    if (dto.number !== undefined && dto.number !== number) {
      throw ValidationFailedError.of('number', 'cannot be changed; it must equal the number in the path');
    }
    return this.customers.transaction(async (tx) => {
      const updated = await this.customers.updateIfMatch(tx, companyId, number, versionsForUpdate(ifMatch), dto);
      if (!updated) {
        if (!(await this.customers.exists(tx, companyId, number))) throw new NotFoundError(`Customer ${number}`);
        throw new PreconditionFailedError();
      }
      await this.events.add(tx, 'CUSTOMER_UPDATED', { companyId, ...updated });
      return updated;
    });
  }
}
