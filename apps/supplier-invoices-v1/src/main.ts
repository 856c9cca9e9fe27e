import 'reflect-metadata';
import { runService } from '@erp/bootstrap';
import { SupplierInvoicesAppModule } from './app.module';
import { SupplierInvoicesConfig } from './config';

void runService({
  name: 'supplier-invoices-v1',
  config: SupplierInvoicesConfig,
  module: (config) => SupplierInvoicesAppModule.forRoot(config),
  errorFamily: 'v1',
});
