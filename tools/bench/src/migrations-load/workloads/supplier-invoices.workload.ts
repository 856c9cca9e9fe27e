import { OUTBOX_FILL, PROCESSED_EVENTS_FILL, RUNNER_TABLES } from './messaging.workload';
import { IDEMPOTENCY_KEYS_FILL, idempotencyKeyInsert } from './idempotency.workload';
import { companyOf, companySql, outboxInsert, type ServiceWorkload, type WriteStatement } from './workload';

const LINES_PER_INVOICE = 3;
const reference = (id: number) => String(id).padStart(10, '0');

/** The lines of an invoice written whole, as a PUT replaces them. */
function linesInsert(id: string): string {
  return `INSERT INTO supplier_invoice_lines (invoice_id, line_number, description, quantity, unit_price, amount)
          SELECT ${id}, l, 'Rad ' || l, 2, 50, 100 FROM generate_series(1, ${LINES_PER_INVOICE}) l`;
}

/**
 * supplier-invoices-v1: invoices and their lines (three each) grow with the business. Its writes
 * are the PUT (header UPDATE, the lines replaced, the event) and the POST (the company's counter,
 * header and lines, the event), in the request's company scope (row-level security once enabled).
 */
export const SUPPLIER_INVOICES_WORKLOAD: ServiceWorkload = {
  service: 'supplier-invoices-v1',
  writesAs: 'company',
  fills: [
    {
      table: 'supplier_invoices',
      sql: (rows) => [
        `INSERT INTO supplier_invoices (internal_id, company_id, reference_number, document_type, supplier_number, supplier_name,
           supplier_reference, document_date, due_date, status, currency_id, amount, vat_amount, balance, description, created_at, last_modified_at)
         OVERRIDING SYSTEM VALUE
         SELECT i, ${companySql('i')}, lpad(i::text, 10, '0'), (ARRAY['Invoice', 'Invoice', 'Invoice', 'CreditAdj'])[1 + i % 4],
                'S' || (i * 13 % 2000), 'Leverantör ' || (i * 13 % 2000) || ' AB', 'REF-' || i,
                (now() - interval '4 years' + i * (interval '4 years' / ${rows}))::date,
                (now() - interval '4 years' + i * (interval '4 years' / ${rows}) + interval '30 days')::date,
                (ARRAY['Open', 'Closed', 'Closed', 'Closed', 'Balanced', 'Hold'])[1 + i % 6], 'SEK', 300, 75, 0, 'Faktura ' || i,
                now() - interval '4 years' + i * (interval '4 years' / ${rows}),
                now() - interval '4 years' + i * (interval '4 years' / ${rows}) + (i % 40) * interval '1 day'
         FROM generate_series(1, ${rows}) i`,
        `SELECT setval(pg_get_serial_sequence('supplier_invoices', 'internal_id'), ${rows})`,
        `INSERT INTO supplier_invoice_number_counters (company_id, last_value) SELECT ${companySql('k')}, ${rows} FROM generate_series(0, 2) k`,
      ],
    },
    {
      table: 'supplier_invoice_lines',
      needs: ['supplier_invoices'],
      sql: () => [
        `INSERT INTO supplier_invoice_lines (invoice_id, line_number, description, quantity, unit_price, amount)
         SELECT i.internal_id, l, 'Rad ' || l, 2, 50, 100 FROM supplier_invoices i CROSS JOIN generate_series(1, ${LINES_PER_INVOICE}) l`,
      ],
    },
    OUTBOX_FILL,
    IDEMPOTENCY_KEYS_FILL,
    PROCESSED_EVENTS_FILL,
  ],
  bounded: {
    ...RUNNER_TABLES,
    supplier_invoice_number_counters: 'one row per company',
    supplier_invoice_attachments: 'one row per attachment of an invoice (the attachments service holds the million)',
    supplier_invoice_buckets: 'counts derived from supplier_invoices by its triggers',
  },
  writes: [
    {
      name: 'PUT invoice',
      weight: 4,
      needs: ['supplier_invoices', 'supplier_invoice_lines'],
      build(context) {
        const id = context.random(context.rows);
        const company = companyOf(id);
        const statements: WriteStatement[] = [
          {
            text: `UPDATE supplier_invoices AS i SET last_modified_at = now(), version = nextval('row_version_seq'), description = $3
                   WHERE i.company_id = $1 AND i.internal_id = $2`,
            values: [company, id, `Faktura ${id} ändrad`],
          },
          { text: `DELETE FROM supplier_invoice_lines WHERE invoice_id = $1`, values: [id] },
          { text: linesInsert('$1::bigint'), values: [id] },
          ...outboxInsert(context, 'SUPPLIER_INVOICE_UPDATED', `${company}:${id}`),
        ];
        return { company, statements };
      },
    },
    {
      name: 'POST invoice',
      weight: 1,
      needs: ['supplier_invoices', 'supplier_invoice_lines', 'supplier_invoice_number_counters'],
      build(context) {
        const id = context.nextId();
        const company = companyOf(id);
        return {
          company,
          statements: [
            {
              text: `INSERT INTO supplier_invoice_number_counters (company_id, last_value) VALUES ($1, 1)
                     ON CONFLICT (company_id) DO UPDATE SET last_value = supplier_invoice_number_counters.last_value + 1`,
              values: [company],
            },
            {
              text: `INSERT INTO supplier_invoices (company_id, reference_number, document_type, supplier_number, document_date, status,
                       amount, vat_amount, balance, created_at, last_modified_at)
                     VALUES ($1, $2, 'Invoice', 'S1', current_date, 'Open', 300, 75, 300, now(), now())`,
              values: [company, reference(id)],
            },
            // A statement of its own: the lines' row-level security policy looks for the invoice,
            // which a CTE of the same statement would not show it.
            {
              text: linesInsert(`(SELECT internal_id FROM supplier_invoices WHERE company_id = $1 AND reference_number = $2)`),
              values: [company, reference(id)],
            },
            ...outboxInsert(context, 'SUPPLIER_INVOICE_CREATED', `${company}:${reference(id)}`),
            ...idempotencyKeyInsert(context, company),
          ],
        };
      },
    },
  ],
};
