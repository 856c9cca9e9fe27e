import { OUTBOX_FILL, PROCESSED_EVENTS_FILL, RUNNER_TABLES } from './messaging.workload';
import { IDEMPOTENCY_KEYS_FILL, idempotencyKeyInsert } from './idempotency.workload';
import { companyOf, companySql, outboxInsert, type ServiceWorkload, type WriteContext } from './workload';

const REVISIONS_PER_ATTACHMENT = 2;
const ownerOf = (id: number) => `INV-${Math.floor(id / 2)}`;
const nameOf = (id: number) => `bilaga-${id}.pdf`;

/**
 * One upload's metadata transaction: the attachment created or moved to its next revision (the
 * upsert on the owner and name), the revision, the pending upload's row gone, the event.
 */
function upload(context: WriteContext, id: number, kind: string) {
  const company = companyOf(id);
  const key = `migload/${id}/${context.nextId()}`;
  return {
    company,
    statements: [
      {
        text: `INSERT INTO attachments AS a (id, company_id, owner_endpoint, owner_id, name, latest_revision, created_at, last_modified_at)
               VALUES (md5('migload-attachment-' || $1::text)::uuid, $2, 'supplierInvoice', $3, $4, 1, now(), now())
               ON CONFLICT (company_id, owner_endpoint, owner_id, name)
               DO UPDATE SET latest_revision = a.latest_revision + 1, last_modified_at = now()`,
        values: [id, company, ownerOf(id), nameOf(id)],
      },
      // Its own statement: the revisions' row-level security policy looks for the attachment.
      {
        text: `INSERT INTO attachment_revisions (attachment_id, revision, storage_key, content_type, size, sha256, created_at)
               SELECT a.id, a.latest_revision, $4, 'application/pdf', 123456, repeat('ab', 32), now() FROM attachments a
               WHERE a.company_id = $1 AND a.owner_endpoint = 'supplierInvoice' AND a.owner_id = $2 AND a.name = $3`,
        values: [company, ownerOf(id), nameOf(id), key],
      },
      { text: `DELETE FROM pending_uploads WHERE storage_key = $1`, values: [key] },
      ...outboxInsert(context, kind, `${company}:${id}`),
      ...idempotencyKeyInsert(context, company),
    ],
  };
}

/**
 * attachments-v1: attachments and their revisions (two each) grow with the business. Its writes
 * are uploads, in the request's company scope (row-level security once enabled): most a new
 * revision of an existing attachment, some a new one.
 */
export const ATTACHMENTS_WORKLOAD: ServiceWorkload = {
  service: 'attachments-v1',
  writesAs: 'company',
  fills: [
    {
      table: 'attachments',
      sql: (rows) => [
        `INSERT INTO attachments (id, company_id, owner_endpoint, owner_id, name, latest_revision, created_at, last_modified_at)
         SELECT md5('migload-attachment-' || i)::uuid, ${companySql('i')}, 'supplierInvoice', 'INV-' || i / 2, 'bilaga-' || i || '.pdf',
                ${REVISIONS_PER_ATTACHMENT}, now() - interval '3 years' + i * (interval '3 years' / ${rows}),
                now() - interval '3 years' + i * (interval '3 years' / ${rows}) + interval '1 hour'
         FROM generate_series(1, ${rows}) i`,
      ],
    },
    {
      table: 'attachment_revisions',
      needs: ['attachments'],
      sql: () => [
        `INSERT INTO attachment_revisions (attachment_id, revision, storage_key, content_type, size, sha256, created_at)
         SELECT a.id, r, a.id || '/' || r, 'application/pdf', 100000 + r, md5(a.id::text) || md5(r::text), a.created_at + (r - 1) * interval '1 hour'
         FROM attachments a CROSS JOIN generate_series(1, ${REVISIONS_PER_ATTACHMENT}) r`,
      ],
    },
    {
      // Every object that may own attachments, learned from the owners' created events: one per invoice or order.
      table: 'attachment_owners',
      sql: (rows) => [
        `INSERT INTO attachment_owners (company_id, endpoint, object_id, known_since)
         SELECT ${companySql('i')}, 'supplierInvoice', 'INV-' || i, now() - interval '3 years' + i * (interval '3 years' / ${rows})
         FROM generate_series(1, ${rows}) i`,
      ],
    },
    OUTBOX_FILL,
    IDEMPOTENCY_KEYS_FILL,
    PROCESSED_EVENTS_FILL,
  ],
  bounded: {
    ...RUNNER_TABLES,
    pending_uploads: 'uploads in flight',
  },
  writes: [
    {
      name: 'upload a revision',
      weight: 4,
      needs: ['attachments', 'attachment_revisions', 'pending_uploads'],
      build: (context) => upload(context, context.random(context.rows), 'ATTACHMENT_CREATED'),
    },
    {
      name: 'upload a new attachment',
      weight: 1,
      needs: ['attachments', 'attachment_revisions', 'pending_uploads'],
      build: (context) => upload(context, context.nextId(), 'ATTACHMENT_CREATED'),
    },
  ],
};
