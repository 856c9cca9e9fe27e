import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pipeline, Readable } from 'node:stream';
import { CompanyId } from '@erp/auth';
import { AttachmentCreated } from '@erp/contracts';
import { ApiError, NotFoundError, refuseUnknownParameters, ValidationFailedError } from '@erp/errors';
import { Base64Encoder, base64Length } from './base64-encoder';
import { negotiateAttachmentRepresentation } from './content-negotiation';
import { contentDisposition } from './file-name';
import type { AttachmentRevision } from './repository/attachments.repository';
import { DownloadAttachment } from './use-cases/download-attachment.use-case';
import { type MultipartBody, UploadAttachment, type UploadedAttachment } from './use-cases/upload-attachment.use-case';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiAuthenticated, ApiErrors, JSON_TYPE, LOCATION_HEADER, ref } from '@erp/openapi';

type QueryParams = Record<string, string | string[] | undefined>;

const OBJECT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function readRevision(query: QueryParams): number | undefined {
  const value = query.revision;
  if (value === undefined) return undefined;
  if (Array.isArray(value) || !/^[1-9]\d{0,8}$/.test(value)) {
    throw ValidationFailedError.of('revision', 'must be a positive integer');
  }
  return Number(value);
}

@Controller('v1')
@ApiTags('Attachments')
@ApiAuthenticated('v1')
export class AttachmentsController {
  constructor(
    private readonly uploadAttachment: UploadAttachment,
    private readonly downloadAttachment: DownloadAttachment,
  ) {}

  /**
   * `POST /v1/{endpoint}/{objectId}/Attachment`: multipart/form-data with exactly one file part
   * named `file`. The same file name on the same object again makes a new revision.
   */
  @Post(':endpoint/:objectId/Attachment')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Upload an attachment',
    description: 'Streams one file to storage. The same file name on the same object again makes a new revision. Nothing is stored on any rejection.',
  })
  @ApiParam({ name: 'endpoint', description: 'The owner type', schema: { type: 'string', enum: [...AttachmentCreated.ATTACHMENT_OWNER_ENDPOINTS] } })
  @ApiParam({ name: 'objectId', description: 'The owner: a customer number or a supplier invoice reference number', schema: { type: 'string' } })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: ref('AttachmentUpload') })
  @ApiResponse({ status: 201, description: 'Stored', headers: LOCATION_HEADER, content: { 'application/json': { schema: ref('AttachmentCreated') } } })
  @ApiErrors('v1', 404, 413, 415)
  async upload(
    @CompanyId() companyId: string,
    @Param('endpoint') endpoint: string,
    @Param('objectId') objectId: string,
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UploadedAttachment> {
    if (!(AttachmentCreated.ATTACHMENT_OWNER_ENDPOINTS as readonly string[]).includes(endpoint)) {
      throw new ApiError('RouteNotFound', 'No resource exists at this path');
    }
    if (!OBJECT_ID.test(objectId)) throw new NotFoundError(`Object ${objectId.slice(0, 40)}`);
    refuseUnknownParameters(query, []);
    if (!request.isMultipart()) {
      throw new ApiError('UnsupportedMediaType', 'Send the file as multipart/form-data with one part named "file"');
    }
    const uploaded = await this.uploadAttachment.execute(
      { companyId, endpoint: endpoint as AttachmentCreated.AttachmentOwnerEndpoint, objectId },
      multipartBody(request),
    );
    reply.header('location', `/v1/attachment/${uploaded.id}`);
    return uploaded;
  }

  /**
   * `GET /v1/attachment/{id}[?revision=N]`, negotiated on Accept: bare Base64 text (the default),
   * a JSON object with the Base64 in `content`, or the raw bytes. All three stream from storage.
   */
  @Get('attachment/:id')
  @ApiOperation({
    summary: 'Download an attachment',
    description:
      'Negotiated on Accept: Base64 of the file as the bare body (default: Accept absent, `*/*` or `text/plain`), ' +
      'a JSON object with the Base64 in `content` (`application/json`), or the raw bytes (`application/octet-stream`). All three stream.',
  })
  @ApiParam({ name: 'id', description: 'Attachment id', schema: { type: 'string', format: 'uuid' } })
  @ApiQuery({ name: 'revision', required: false, description: 'An older revision (default: the latest)', schema: { type: 'integer', minimum: 1 } })
  @ApiProduces('text/plain', 'application/json', 'application/octet-stream')
  @ApiResponse({
    status: 200,
    description: 'The file in the negotiated representation',
    content: {
      'text/plain': { schema: { type: 'string', description: 'Base64 of the file (`Content-Type: text/plain; charset=us-ascii`)' } },
      'application/json': { schema: ref('AttachmentContent') },
      'application/octet-stream': { schema: { type: 'string', format: 'binary', description: 'The raw bytes, with `Content-Disposition`' } },
    },
  })
  @ApiErrors('v1', 404, 406)
  async download(
    @CompanyId() companyId: string,
    @Param('id') id: string,
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (!UUID.test(id)) throw new NotFoundError(`Attachment ${id.slice(0, 40)}`);
    refuseUnknownParameters(query, ['revision']);
    const revision = readRevision(query);
    const representation = negotiateAttachmentRepresentation(request.headers.accept);
    if (!representation) {
      throw new ApiError('NotAcceptable', 'Accept text/plain (Base64), application/json or application/octet-stream');
    }
    const { attachment, bytes } = await this.downloadAttachment.execute(companyId, id.toLowerCase(), revision);
    reply.header('x-content-type-options', 'nosniff').header('vary', 'Accept');
    switch (representation) {
      case 'application/octet-stream':
        reply
          .type('application/octet-stream')
          .header('content-length', String(attachment.size))
          .header('content-disposition', contentDisposition(attachment.name));
        await reply.send(bytes);
        return;
      case 'application/json': {
        const { prefix, suffix } = jsonFrame(attachment);
        reply
          .type(JSON_TYPE)
          .header('content-length', String(Buffer.byteLength(prefix) + base64Length(attachment.size) + suffix.length));
        await reply.send(Readable.from(jsonBody(prefix, base64Of(bytes), suffix)));
        return;
      }
      default:
        reply.type('text/plain; charset=us-ascii').header('content-length', String(base64Length(attachment.size)));
        await reply.send(base64Of(bytes));
    }
  }
}

function multipartBody(request: FastifyRequest): MultipartBody {
  return {
    parts: (limits) => request.parts({ limits }),
    discardRest: () => {
      request.raw.unpipe();
      request.raw.resume();
    },
  };
}

function base64Of(bytes: Readable): Readable {
  return pipeline(bytes, new Base64Encoder(), () => undefined);
}

/** `{ id, name, revision, contentType, size, content: "` ... `" }`: the content streams in between. */
function jsonFrame(attachment: AttachmentRevision): { prefix: string; suffix: string } {
  const head = JSON.stringify({
    id: attachment.id,
    name: attachment.name,
    revision: attachment.revision,
    contentType: attachment.contentType,
    size: attachment.size,
  });
  return { prefix: `${head.slice(0, -1)},"content":"`, suffix: '"}' };
}

async function* jsonBody(prefix: string, base64: Readable, suffix: string): AsyncGenerator<Buffer> {
  yield Buffer.from(prefix);
  for await (const chunk of base64) yield chunk as Buffer;
  yield Buffer.from(suffix);
}
