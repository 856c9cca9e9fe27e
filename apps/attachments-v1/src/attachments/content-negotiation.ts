/** The three representations of `GET /v1/attachment/{id}`, in order of preference on a tie. */
export const ATTACHMENT_REPRESENTATIONS = ['text/plain', 'application/json', 'application/octet-stream'] as const;
export type AttachmentRepresentation = (typeof ATTACHMENT_REPRESENTATIONS)[number];

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.trim().split(';');
    const [type, subtype] = range.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.trim().split('=');
      if (name?.trim().toLowerCase() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** The q a media type gets: from the most specific range that matches it (RFC 9110 §12.5.1). */
function qualityOf(offer: string, ranges: MediaRange[]): number {
  const [type, subtype] = offer.split('/');
  let best: { specificity: number; q: number } | undefined;
  for (const range of ranges) {
    const specificity =
      range.type === type && range.subtype === subtype ? 2 : range.type === type && range.subtype === '*' ? 1 : range.type === '*' && range.subtype === '*' ? 0 : -1;
    if (specificity < 0) continue;
    if (!best || specificity > best.specificity) best = { specificity, q: range.q };
  }
  return best?.q ?? 0;
}

/**
 * Picks the representation for an Accept header: no header (or an empty one) is the default, bare
 * Base64 text; otherwise the highest q wins, ties going to text/plain, then JSON, then raw bytes.
 * Undefined when the client accepts none of them (406).
 */
export function negotiateAttachmentRepresentation(accept: string | string[] | undefined): AttachmentRepresentation | undefined {
  const header = Array.isArray(accept) ? accept.join(',') : accept;
  if (header === undefined || header.trim() === '') return 'text/plain';
  const ranges = parseAccept(header);
  if (ranges.length === 0) return 'text/plain';
  let chosen: { offer: AttachmentRepresentation; q: number } | undefined;
  for (const offer of ATTACHMENT_REPRESENTATIONS) {
    const q = qualityOf(offer, ranges);
    if (q > 0 && (!chosen || q > chosen.q)) chosen = { offer, q };
  }
  return chosen?.offer;
}
