import { Controller, Get } from '@nestjs/common';
import { RequiredScope, SCOPES } from '@erp/auth';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAuthenticated, ApiJsonResponse } from '@erp/openapi';
import { PUBLISHERS, type PublisherDescription } from './publishers';

@Controller('api/webhooks/publishers')
@ApiTags('Webhooks')
@ApiAuthenticated('problem')
@RequiredScope(SCOPES.manageWebhooks)
export class PublishersController {
  /** The publishers and their event types, each with the JSON Schema of its delivery body. */
  @Get()
  @ApiOperation({ summary: 'List publishers and event types', description: 'Each event type with the JSON Schema of its delivery body. Needs scope `webhooks:manage`.' })
  @ApiJsonResponse(200, 'The publishers', 'Publishers')
  list(): { value: readonly PublisherDescription[] } {
    return { value: PUBLISHERS };
  }
}
