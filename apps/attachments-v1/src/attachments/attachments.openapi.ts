import type { Schemas } from '@erp/openapi';

const META = {
  id: { type: 'string', format: 'uuid' },
  name: { type: 'string', description: 'The file name' },
  revision: { type: 'integer', minimum: 1, description: 'A new upload of the same name to the same object is the next revision' },
  contentType: { type: 'string', examples: ['application/pdf'] },
  size: { type: 'integer', minimum: 1, description: 'Bytes' },
};

export const ATTACHMENT_SCHEMAS: Schemas = {
  AttachmentUpload: {
    type: 'object',
    required: ['file'],
    properties: { file: { type: 'string', format: 'binary', description: 'Exactly one non-empty file part named `file` (any content type)' } },
  },
  AttachmentCreated: {
    type: 'object',
    required: ['id', 'name', 'revision', 'contentType', 'size', 'sha256'],
    properties: { ...META, sha256: { type: 'string', description: 'Hex SHA-256 of the bytes', pattern: '^[0-9a-f]{64}$' } },
  },
  AttachmentContent: {
    type: 'object',
    required: ['id', 'name', 'revision', 'contentType', 'size', 'content'],
    properties: { ...META, content: { type: 'string', contentEncoding: 'base64', description: 'The file, Base64' } as never },
  },
};
