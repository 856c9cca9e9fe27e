import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
import { CompanyId, InternalRoute } from '@erp/auth';
import { INTERNAL_API_PREFIX } from '@erp/contracts';
import { ApiInternal } from '@erp/openapi';
import { ReceiveAttachmentEvent } from './use-cases/receive-attachment-event.use-case';

/**
 * The internal call through which the attachments service hands over an ATTACHMENT_CREATED event
 * as soon as the upload commits (docs/cross-service-reads.md); Kafka delivers the same event later.
 * Its contract is `INTERNAL_ROUTES.attachmentEvents` in `@erp/contracts`.
 */
@Controller(`${INTERNAL_API_PREFIX}/attachment-events`)
@InternalRoute()
@ApiInternal('v1')
export class InvoiceAttachmentsInternalController {
  constructor(private readonly receive: ReceiveAttachmentEvent) {}

  @Post()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Apply an ATTACHMENT_CREATED event now',
    description: 'The event envelope as the attachments service put it in its outbox (topic erp.attachments.attachment.v1). Idempotent: a copy of it, or an older revision, changes nothing.',
  })
  @ApiBody({ description: 'An event envelope of the attachments topic', schema: { type: 'object' } })
  @ApiNoContentResponse({ description: 'Applied (or already known)' })
  async post(@CompanyId() companyId: string, @Body() body: unknown): Promise<void> {
    await this.receive.execute(companyId, body);
  }
}
