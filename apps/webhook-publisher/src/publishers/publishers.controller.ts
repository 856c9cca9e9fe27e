import { Controller, Get } from '@nestjs/common';
import { RequiredScope, SCOPES } from '@erp/auth';
import { PUBLISHERS, type PublisherDescription } from './publishers';

@Controller('api/webhooks/publishers')
@RequiredScope(SCOPES.manageWebhooks)
export class PublishersController {
  /** The publishers and their event types, each with the JSON Schema of its delivery body. */
  @Get()
  list(): { value: readonly PublisherDescription[] } {
    return { value: PUBLISHERS };
  }
}
