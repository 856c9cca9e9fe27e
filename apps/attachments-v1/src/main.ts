import 'reflect-metadata';
import { runService } from '@erp/bootstrap';
import { AttachmentsAppModule } from './app.module';
import { AttachmentsConfig } from './config';

void runService({
  name: 'attachments-v1',
  config: AttachmentsConfig,
  module: (config) => AttachmentsAppModule.forRoot(config),
  errorFamily: 'v1',
});
