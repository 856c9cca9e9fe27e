import 'reflect-metadata';
import { runService } from '@erp/bootstrap';
import { GatewayAppModule } from './app.module';
import { GatewayConfig } from './config';

void runService({
  name: 'api-gateway',
  config: GatewayConfig,
  module: (config) => GatewayAppModule.forRoot(config),
  errorFamily: 'by-path',
});
