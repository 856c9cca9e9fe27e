import type { Provider } from '@nestjs/common';
import { CustomersRepository } from './repository/customers.repository';
import { CreateCustomer } from './use-cases/create-customer.use-case';
import { CustomerEvents } from '../events/customer-events';
import { GetCustomer } from './use-cases/get-customer.use-case';
import { GetCustomerReference } from './use-cases/get-customer-reference.use-case';
import { ListCustomerLocations } from './use-cases/list-customer-locations.use-case';
import { ListCustomers } from './use-cases/list-customers.use-case';
import { ListCustomersV3 } from './use-cases/list-customers-v3.use-case';
import { UpdateCustomer } from './use-cases/update-customer.use-case';

/** The customer use cases (one per operation) and what they write through. */
export const CUSTOMER_PROVIDERS: Provider[] = [CustomersRepository, CustomerEvents, ListCustomers, GetCustomer, GetCustomerReference, CreateCustomer, UpdateCustomer, ListCustomersV3, ListCustomerLocations];
