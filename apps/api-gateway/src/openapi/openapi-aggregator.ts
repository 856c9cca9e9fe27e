import { Injectable, Logger } from '@nestjs/common';
import { mergeOpenApiDocuments } from '@erp/openapi';
import { UpstreamDocuments } from './upstream-documents';

/** A merged document is rebuilt from documents fetched at most this long ago. */
export const MERGED_DOCUMENT_MAX_AGE_MS = 60_000;

/**
 * The gateway's merged API document: each configured service's `/openapi.json` (UpstreamDocuments
 * fetches them), merged by `mergeOpenApiDocuments`. A service that is down is left out and named
 * in `x-unavailable-services`.
 */
@Injectable()
export class OpenApiAggregator {
  private readonly logger = new Logger('OpenApiAggregator');
  private merged?: { json: string; builtFrom: string };

  constructor(private readonly documents: UpstreamDocuments) {}

  /** The merged document as JSON text. */
  async document(): Promise<string> {
    // A service missing so far is asked again (at most every 5 s); the others when their copy is a minute old.
    await this.documents.refresh(MERGED_DOCUMENT_MAX_AGE_MS);
    const parts = this.documents.current();
    const builtFrom = parts.map((p) => `${p.service}@${p.fetchedAt}`).join(',');
    if (this.merged?.builtFrom !== builtFrom) {
      const { document, warnings } = mergeOpenApiDocuments(parts, {
        title: 'ERP business API',
        version: '1',
        license: { name: 'Proprietary' },
        description:
          'Customers, supplier invoices and attachments (`/v1`), sales orders (`/api/v3`) and webhook subscriptions (`/api/webhooks`). ' +
          'Every request needs `Authorization: Bearer <JWT>`; `ipp-company-id` selects the company; `/v1` requests also need `ipp-application-type`. ' +
          'Errors: the v1 error body under `/v1`, `application/problem+json` elsewhere.',
      });
      const missing = this.documents.missing();
      if (missing.length > 0) document['x-unavailable-services'] = missing;
      for (const warning of warnings) this.logger.warn(warning);
      this.merged = { json: JSON.stringify(document), builtFrom };
    }
    return this.merged.json;
  }
}
