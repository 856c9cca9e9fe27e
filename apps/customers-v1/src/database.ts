import { CustomerEntity, CustomerNumberCounterEntity } from './customers/customer.entity';
import { CreateCustomers1763700000000 } from './migrations/1763700000000-create-customers';

/** Everything this service keeps in its database; the migrations are the schema's source of truth. */
export const CUSTOMERS_ENTITIES = [CustomerEntity, CustomerNumberCounterEntity];
export const CUSTOMERS_MIGRATIONS = [CreateCustomers1763700000000];
