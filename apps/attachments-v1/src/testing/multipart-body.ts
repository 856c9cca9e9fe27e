import { randomBytes } from 'node:crypto';

export interface RawPart {
  name: string;
  /** Omit for a plain form field; '' sends `filename=""`. */
  filename?: string;
  /** Sent as `filename*=UTF-8''...` (RFC 8187) instead of `filename`. */
  filenameStar?: string;
  contentType?: string;
  data: Buffer | string;
}

/**
 * A multipart/form-data body built byte by byte, for cases a FormData object cannot express
 * (two files, a file without a name, a field called `file`, RFC 8187 names).
 */
export function multipartBody(parts: RawPart[]): { body: Buffer; contentType: string } {
  const boundary = `----erp-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let disposition = `form-data; name="${part.name}"`;
    if (part.filename !== undefined) disposition += `; filename="${part.filename}"`;
    if (part.filenameStar !== undefined) disposition += `; filename*=UTF-8''${encodeURIComponent(part.filenameStar)}`;
    let head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n`;
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A file that looks like a PDF: header, binary marker bytes, NULs, a stream, the EOF marker. */
export function pdfLikeBytes(size = 4096): Buffer {
  const head = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nstream\n', 'latin1');
  const tail = Buffer.from('\nendstream\nendobj\n%%EOF\n', 'latin1');
  const body = randomBytes(Math.max(0, size - head.length - tail.length));
  for (let i = 0; i < body.length; i += 97) body[i] = 0;
  return Buffer.concat([head, body, tail]);
}
