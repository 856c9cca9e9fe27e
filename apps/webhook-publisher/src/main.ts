import 'reflect-metadata';
import { runService } from '@erp/bootstrap';
import { WebhookPublisherAppModule } from './app.module';
import { WebhookPublisherConfig } from './config';

void runService({
  name: 'webhook-publisher',
  config: WebhookPublisherConfig,
  module: (config) => WebhookPublisherAppModule.forRoot(config),
  errorFamily: 'problem',
});
