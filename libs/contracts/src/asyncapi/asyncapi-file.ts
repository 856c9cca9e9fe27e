import { resolve } from 'node:path';
import { asyncApiDocument } from './asyncapi-document';

/** The committed document (`libs/contracts/asyncapi.json`), for readers without the code. */
export const ASYNCAPI_FILE = resolve(__dirname, '..', '..', 'asyncapi.json');

/** The document as the file holds it: two-space JSON and a final newline. */
export function asyncApiJson(): string {
  return `${JSON.stringify(asyncApiDocument(), null, 2)}\n`;
}
