import { prepared } from '@erp/database';
import { bucketSeekPageSql, isRangeOperator, pageParameters, timeBucketedCountsSql, type BucketedList, type TimeBucketCells, type TimeRange } from '@erp/paging';
import type { SupplierInvoiceListQuery } from '../supplier-invoice-list.query';

/**
 * The invoice's wire shape, built by Postgres (alias `i` = supplier_invoices). Lists and single
 * reads return this text as it is. Amounts are `numeric` rendered as JSON numbers with their exact
 * digits (quantities and unit prices without trailing zeros). Timestamps are UTC without zone, to
 * the millisecond (what is stored); dates are `YYYY-MM-DD`.
 */
export const SUPPLIER_INVOICE_JSON = `json_build_object(
    'documentType', i.document_type,
    'referenceNumber', i.reference_number,
    'supplier', json_build_object('number', i.supplier_number, 'name', i.supplier_name),
    'supplierReference', i.supplier_reference,
    'date', to_char(i.document_date, 'YYYY-MM-DD'),
    'dueDate', to_char(i.due_date, 'YYYY-MM-DD'),
    'status', i.status,
    'hold', i.status = 'Hold',
    'currencyId', i.currency_id,
    'amount', i.amount,
    'vatAmount', i.vat_amount,
    'balance', i.balance,
    'description', i.description,
    'invoiceLines', COALESCE((
      SELECT json_agg(json_build_object(
          'lineNumber', l.line_number,
          'description', l.description,
          'quantity', trim_scale(l.quantity),
          'unitPrice', trim_scale(l.unit_price),
          'amount', l.amount
        ) ORDER BY l.line_number)
      FROM supplier_invoice_lines l WHERE l.invoice_id = i.internal_id), '[]'::json),
    'attachments', COALESCE((
      SELECT json_agg(json_build_object('id', a.attachment_id, 'name', a.name, 'revision', a.revision)
        ORDER BY a.position)
      FROM supplier_invoice_attachments a
      WHERE a.company_id = i.company_id AND a.reference_number = i.reference_number), '[]'::json),
    'createdDateTime', to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS'),
    'lastModifiedDateTime', to_char(i.last_modified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS'),
    'timeStamp', i.version::text
  )::text`;

export interface SqlQuery {
  text: string;
  values: unknown[];
}

/**
 * The id and time buckets of `supplier_invoice_buckets`, cut by its triggers (migration
 * 1765300000000) as the functions of migration 1766800000000 cut them: their widths (2^14 ids,
 * about 24 days) are the schema's, not written here.
 */
const INVOICES: BucketedList = {
  table: 'supplier_invoices',
  alias: 'i',
  idBucket: 'supplier_invoice_id_bucket',
  idBucketStart: 'supplier_invoice_id_bucket_start',
  json: SUPPLIER_INVOICE_JSON,
};
const INVOICE_CELLS: TimeBucketCells = {
  table: 'supplier_invoice_buckets',
  timeFunction: 'supplier_invoice_time_bucket',
  timeBucketStart: 'supplier_invoice_time_bucket_start',
};

/**
 * Whether the count cells answer this request: `status`, `documentType` and a
 * `lastModifiedDateTime` range (not `=`), each optional. `supplier` and `=` are counted from the rows.
 */
export function isCellCountedListQuery(query: SupplierInvoiceListQuery): boolean {
  return query.supplier === undefined && (query.lastModified === undefined || isRangeOperator(query.lastModified.operator));
}

/**
 * One page of any filter, with the exact total, in one statement whose time does not grow with the
 * page number (`bucketSeekPageSql` of `@erp/paging`): the count per id bucket (`supplier_invoice_id_bucket()`)
 * comes either
 * - from `supplier_invoice_buckets` (isCellCountedListQuery): the cells of the status and
 *   document type asked for, whose time bucket lies strictly inside the `lastModifiedDateTime`
 *   range, plus the range's boundary time bucket counted exactly from the covering index
 *   `(company_id, last_modified_at, internal_id) INCLUDE (status, document_type)`; or
 * - from the rows themselves (`supplier`, `lastModifiedDateTime` with `=`): an index-only count of
 *   the supplier's or the instant's rows, grouped by id bucket. Both are selective: one supplier
 *   holds at most a few percent of a company's invoices, one instant a handful.
 * The total is their sum; the page starts in the id bucket where the running count passes the
 * offset, so at most one bucket of index entries is skipped; JSON is built for the page's rows only.
 */
export function supplierInvoicePageQuery(companyId: string, query: SupplierInvoiceListQuery): SqlQuery {
  const { values, param } = pageParameters(companyId, query.page);
  const conditions: Array<[column: string, value: string]> = [];
  if (query.status !== undefined) conditions.push(['status', param(query.status)]);
  if (query.documentType !== undefined) conditions.push(['document_type', param(query.documentType)]);
  const cellConditions = conditions.map(([column, p]) => ` AND ${column} = ${p}`).join('');
  const rowConditions = conditions.map(([column, p]) => ` AND i.${column} = ${p}`).join('');
  const { lastModified } = query;
  if (isCellCountedListQuery(query)) {
    const ranges: TimeRange[] = [];
    if (lastModified && isRangeOperator(lastModified.operator)) {
      ranges.push({ operator: lastModified.operator, at: `${param(lastModified.value)}::timestamptz`, column: 'i.last_modified_at', bucket: 'modified_bucket' });
    }
    const counts = timeBucketedCountsSql(INVOICES, INVOICE_CELLS, ranges, cellConditions, rowConditions);
    const text = bucketSeekPageSql(INVOICES, counts.perBucket, counts.rowConditions);
    // Prepared (planned once per connection) for equalities only: a generic plan does not know how
    // wide a time range is (customers-queries, customerTimeBucketedPageQuery).
    return { text: ranges.length > 0 ? text : prepared(text), values };
  }
  // Operators come from a fixed set checked by the parser, never from raw input.
  let exact = rowConditions;
  if (query.supplier !== undefined) exact += ` AND i.supplier_number = ${param(query.supplier)}`;
  if (lastModified) exact += ` AND i.last_modified_at ${lastModified.operator} ${param(lastModified.value)}::timestamptz`;
  const perBucket = `SELECT ${INVOICES.idBucket}(i.internal_id), count(*) FROM supplier_invoices i WHERE i.company_id = $1${exact} GROUP BY 1`;
  // Not prepared: a supplier's size is skewed, and a generic plan would not know which one is asked.
  return { text: bucketSeekPageSql(INVOICES, perBucket, exact), values };
}

export function supplierInvoiceByReferenceQuery(companyId: string, referenceNumber: string): SqlQuery {
  return {
    text: `SELECT ${SUPPLIER_INVOICE_JSON} AS json, i.version::text AS version, i.amount::text AS amount FROM supplier_invoices i
           WHERE i.company_id = $1 AND i.reference_number = $2`,
    values: [companyId, referenceNumber],
  };
}
