import { Injectable } from '@nestjs/common';
import { type AttachmentOwnerEndpoint, AttachmentOwnersRepository } from './attachment-owners.repository';
import { OwnerServices } from './owner-services';

/**
 * Which records may own attachments. Known from their created events (CUSTOMER_CREATED,
 * SUPPLIERINVOICE_CREATED) in `attachment_owners`; a record not known there yet is asked of its
 * owner service, and a yes is kept as the event would keep it. So an upload to a record created a
 * moment ago is not refused, and "not found" is the owner's answer, never a missed event.
 */
@Injectable()
export class AttachmentOwners {
  constructor(
    private readonly known: AttachmentOwnersRepository,
    private readonly owners: OwnerServices,
  ) {}

  async exists(companyId: string, endpoint: AttachmentOwnerEndpoint, objectId: string): Promise<boolean> {
    if (await this.known.isKnown(companyId, endpoint, objectId)) return true;
    if (!(await this.owners.exists(companyId, endpoint, objectId))) return false;
    await this.known.recordAnswer(companyId, endpoint, objectId);
    return true;
  }
}
