import { IsIn, IsInt, IsNotEmpty, IsString, IsUUID, Matches, MaxLength, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { TOPICS } from '../../topics/topics';

/** The v1 endpoints whose records can own attachments (`POST /v1/{endpoint}/{objectId}/Attachment`). */
export const ATTACHMENT_OWNER_ENDPOINTS = ['supplierInvoice', 'customer'] as const;
export type AttachmentOwnerEndpoint = (typeof ATTACHMENT_OWNER_ENDPOINTS)[number];

/**
 * A file was attached to a record, or a new revision of an attachment was uploaded (same name on
 * the same record). The owning service adds `{ id, name, revision }` to the record's attachment
 * list; a later revision of the same `id` replaces an earlier one.
 */
export const TYPE = 'ATTACHMENT_CREATED';
export const TOPIC = TOPICS.attachments;

export class Data {
  @JSONSchema({ description: 'The attachment id used by `GET /v1/attachment/{id}` (the same for every revision).' })
  @IsUUID()
  id: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @JSONSchema({ description: '1 for the first upload of this name on this record, then 2, 3...' })
  @IsInt()
  @Min(1)
  revision: number;

  @JSONSchema({ description: "The owner's endpoint, as in the upload path `/v1/{endpoint}/{objectId}/Attachment`." })
  @IsIn(ATTACHMENT_OWNER_ENDPOINTS)
  endpoint: AttachmentOwnerEndpoint;

  @JSONSchema({ description: "The owner's id, as in the upload path." })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  objectId: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  contentType: string;

  @IsInt()
  @Min(1)
  size: number;

  @JSONSchema({ description: 'Hex SHA-256 of the bytes.' })
  @Matches(/^[0-9a-f]{64}$/, { message: 'sha256 must be 64 lower-case hex digits' })
  sha256: string;

  @JSONSchema({ description: "The revision's resource path, `/v1/attachment/<id>?revision=<revision>`." })
  @Matches(/^\/v1\/attachment\/[0-9a-f-]{36}\?revision=[1-9][0-9]*$/, { message: 'link must be /v1/attachment/<id>?revision=<n>' })
  link: string;
}

/** The resource path of one revision of an attachment. */
export function attachmentLink(id: string, revision: number): string {
  return `/v1/attachment/${id}?revision=${revision}`;
}
