import 'reflect-metadata';
import { runService } from '@erp/bootstrap';
import { CustomersAppModule } from './app.module';
import { CustomersConfig } from './config';

void runService({
  name: 'customers-v1',
  config: CustomersConfig,
  module: (config) => CustomersAppModule.forRoot(config),
  // /v1 answers in the v1 error shape, /api/v3/Customers in problem+json.
  errorFamily: 'by-path',
});
