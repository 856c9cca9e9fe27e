import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
import { CompanyId, InternalRoute } from '@erp/auth';
import { AttachmentEvent, INTERNAL_API_PREFIX } from '@erp/contracts';
import { TolerantBody } from '@erp/errors';
import { ApiInternal } from '@erp/openapi';
import { ReceiveAttachmentEvent } from './use-cases/receive-attachment-event.use-case';

/**
 * The internal call through which the attachments service hands over an ATTACHMENT_CREATED event
 * as soon as the upload commits (docs/cross-service-reads.md); Kafka delivers the same event later.
 * Its contract is `INTERNAL_ROUTES.attachmentEvents` in `@erp/contracts`. The envelope is validated
 * as its class like every body, tolerant of fields a newer attachments release adds (`TolerantBody`).
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
  async post(@CompanyId() companyId: string, @TolerantBody() event: AttachmentEvent): Promise<void> {
    await this.receive.execute(companyId, event);
  }
}
