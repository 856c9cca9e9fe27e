/** Characters never kept in a stored file name: controls (C0, DEL, C1) and the path separators. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f/\\]/g;
export const MAX_FILE_NAME_LENGTH = 255;

/**
 * The attachment's name from the multipart file name: any directory part is dropped (some clients
 * send a full path), control characters removed, surrounding spaces trimmed, Unicode normalised
 * to NFC (so the same name typed on two systems is the same attachment). Empty when nothing usable
 * is left; the caller refuses that, and names longer than MAX_FILE_NAME_LENGTH characters.
 */
export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = base.replace(UNSAFE, '').normalize('NFC').trim();
  return cleaned === '.' || cleaned === '..' ? '' : cleaned;
}

export function fileNameLength(name: string): number {
  return [...name].length;
}

/**
 * `Content-Disposition: attachment` naming the file (RFC 6266): an ASCII fallback in `filename`
 * for old clients and the exact name, UTF-8 percent-encoded, in `filename*` (RFC 8187).
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;

/** The part's media type when it is a plain `type/subtype`; anything else is stored as octet-stream. */
export function cleanContentType(raw: string | undefined): string {
  const type = raw?.split(';')[0].trim().toLowerCase();
  return type && MEDIA_TYPE.test(type) ? type : 'application/octet-stream';
}
