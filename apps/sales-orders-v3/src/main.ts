import 'reflect-metadata';
import { runService } from '@erp/bootstrap';
import { SalesOrdersAppModule, SERVICE_NAME } from './app.module';
import { SalesOrdersConfig } from './config';

void runService({
  name: SERVICE_NAME,
  config: SalesOrdersConfig,
  module: (config) => SalesOrdersAppModule.forRoot(config),
  errorFamily: 'problem',
});
