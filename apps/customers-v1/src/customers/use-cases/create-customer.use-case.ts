import { Injectable } from '@nestjs/common';
import { ApiError } from '@erp/errors';
import type { CreateCustomerDto } from '../dto/customer-write.dto';
import { type CustomerRecord, CustomersRepository } from '../repository/customers.repository';
import { CustomerEvents } from '../../events/customer-events';

const MAX_NUMBER_ATTEMPTS = 50;

/**
 * POST /v1/customer: the number the client chose (a duplicate is 400), or the company's next one,
 * and the CUSTOMER_CREATED event, in one transaction.
 */
@Injectable()
export class CreateCustomer {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly events: CustomerEvents,
  ) {}

  execute(companyId: string, dto: CreateCustomerDto): Promise<CustomerRecord> {
    return this.customers.transaction(async (tx) => {
      if (dto.number !== undefined) {
        const created = await this.customers.insert(tx, companyId, dto.number, dto);
        if (!created) {
          throw new ApiError('DuplicateValue', `A customer with number ${dto.number} already exists`, {
            fieldProblems: [{ field: 'number', message: 'is already in use', code: '0002-InvalidValue' }],
          });
        }
        await this.events.add(tx, 'CUSTOMER_CREATED', { companyId, ...created });
        return created;
      }
      // Numbers a client chose may collide with the sequence; skip those rather than fail.
      for (let attempt = 0; attempt < MAX_NUMBER_ATTEMPTS; attempt++) {
        const created = await this.customers.insert(tx, companyId, await this.customers.nextNumber(tx, companyId), dto);
        if (created) {
          await this.events.add(tx, 'CUSTOMER_CREATED', { companyId, ...created });
          return created;
        }
      }
      throw new Error('Could not assign a free customer number');
    });
  }
}
