import Busboy from '@fastify/busboy';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { multipartFile } from './multipart';

interface ParsedFile {
  field: string;
  name: string;
  mimeType: string;
  data: Buffer;
}

/** Parses the body with @fastify/busboy: the parser behind the attachments service's @fastify/multipart. */
async function parse(contentType: string, body: ReadableStream<Uint8Array>): Promise<ParsedFile[]> {
  const bytes = await buffer(Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>));
  return new Promise((resolve, reject) => {
    const files: Promise<ParsedFile>[] = [];
    const parser = new Busboy({ headers: { 'content-type': contentType }, preservePath: true });
    parser.on('file', (field, stream, name, _encoding, mimeType) => {
      files.push(buffer(stream).then((data) => ({ field, name, mimeType, data })));
    });
    parser.on('finish', () => resolve(Promise.all(files)));
    parser.on('error', reject);
    parser.end(bytes);
  });
}

describe('multipartFile', () => {
  it('frames one part named file with the exact bytes, name and content type, reporting progress as it streams', async () => {
    const data = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 256));
    const progress: number[] = [];
    const { contentType, body } = multipartFile({ fileName: 'Faktura mai.pdf', data, contentType: 'application/pdf', onProgress: (b) => progress.push(b) });
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const files = await parse(contentType, body);
    expect(files.map(({ data: _data, ...rest }) => rest)).toEqual([{ field: 'file', name: 'Faktura mai.pdf', mimeType: 'application/pdf' }]);
    // Buffer.equals: Jest's deep equality walks large buffers byte by byte, slowly.
    expect(files[0].data.equals(data)).toBe(true);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress[progress.length - 1]).toBe(data.length);
  });

  it('streams a Readable source, with application/octet-stream by default', async () => {
    const { contentType, body } = multipartFile({ fileName: 'a.bin', data: Readable.from([Buffer.from('ab'), Buffer.from('cd')]) });
    expect(await parse(contentType, body)).toEqual([{ field: 'file', name: 'a.bin', mimeType: 'application/octet-stream', data: Buffer.from('abcd') }]);
  });

  it('keeps a non-ASCII name, quotes and backslashes exact, and drops line breaks', async () => {
    const { contentType, body } = multipartFile({ fileName: 'Kvittering "ø" \\ 1\r\n.pdf', data: Buffer.from('x') });
    const [file] = await parse(contentType, body);
    expect(file.name).toBe('Kvittering "ø" \\ 1.pdf');
  });
});
