import { preparedStatementName } from '@erp/database';
import { parseSupplierInvoiceListQuery } from '../supplier-invoice-list.query';
import { isCellCountedListQuery, supplierInvoicePageQuery } from './supplier-invoices.queries';

const parse = (query: Record<string, string>) => parseSupplierInvoiceListQuery(query, 500);

describe('isCellCountedListQuery', () => {
  it.each(['>', '>=', '<', '<='])('takes the unfiltered list, status, documentType and lastModified %s, alone and together', (operator) => {
    expect(isCellCountedListQuery(parse({}))).toBe(true);
    expect(isCellCountedListQuery(parse({ status: 'Open', documentType: 'Invoice' }))).toBe(true);
    expect(isCellCountedListQuery(parse({ lastModifiedDateTime: '2026-01-01', lastModifiedDateTimeCondition: operator, status: 'Hold' }))).toBe(true);
  });

  it('leaves supplier and = to a count of the rows', () => {
    expect(isCellCountedListQuery(parse({ supplier: 'S1' }))).toBe(false);
    expect(isCellCountedListQuery(parse({ supplier: 'S1', lastModifiedDateTime: '2026-01-01' }))).toBe(false);
    expect(isCellCountedListQuery(parse({ lastModifiedDateTime: '2026-01-01', lastModifiedDateTimeCondition: '=' }))).toBe(false);
  });
});

describe('supplierInvoicePageQuery', () => {
  it('reads the cells for a range, scoped by company, with every value a parameter', () => {
    const q = supplierInvoicePageQuery(
      '1000001',
      parse({ status: 'Open', documentType: 'CreditAdj', lastModifiedDateTime: '2026-01-01', lastModifiedDateTimeCondition: '<', pageNumber: '3', pageSize: '10' }),
    );
    expect(q.values).toEqual(['1000001', 10, 20, 'Open', 'CreditAdj', '2026-01-01T00:00:00.000Z']);
    expect(q.text).not.toContain('2026-01-01');
    // The cells, the boundary count and the page (read forward, or from its bucket's end): four reads of data, each with the company.
    expect(q.text.match(/company_id = \$1/g)).toHaveLength(4);
    expect(q.text).toContain('FROM supplier_invoice_buckets');
    expect(q.text).toContain('AND status = $4 AND document_type = $5 AND modified_bucket < supplier_invoice_time_bucket($6::timestamptz)');
    // Bucket bounds are the schema's functions (migration 1766800000000), no width written here.
    expect(q.text).toContain(
      'i.last_modified_at >= supplier_invoice_time_bucket_start(supplier_invoice_time_bucket($6::timestamptz)) AND i.last_modified_at < supplier_invoice_time_bucket_start(supplier_invoice_time_bucket($6::timestamptz) + 1)',
    );
    expect(q.text).toContain('i.internal_id >= (SELECT supplier_invoice_id_bucket_start(bucket) FROM start)');
    expect(q.text).toContain('i.internal_id < (SELECT supplier_invoice_id_bucket_start(bucket + 1) FROM stop)');
    expect(q.text).not.toMatch(/\s(<<|>>)\s/);
  });

  it('counts a supplier from its rows, grouped by id bucket, and seeks the page the same way', () => {
    const q = supplierInvoicePageQuery('1000001', parse({ supplier: 'S1', lastModifiedDateTime: '2026-01-01', lastModifiedDateTimeCondition: '=' }));
    expect(q.values).toEqual(['1000001', 500, 0, 'S1', '2026-01-01T00:00:00.000Z']);
    expect(q.text).not.toContain('supplier_invoice_buckets');
    expect(q.text).toContain(`SELECT supplier_invoice_id_bucket(i.internal_id), count(*) FROM supplier_invoices i WHERE i.company_id = $1 AND i.supplier_number = $4 AND i.last_modified_at = $5::timestamptz`);
    expect(q.text).not.toMatch(/OFFSET \$3\b/);
  });
});

describe('which page statements run prepared', () => {
  const name = (query: Record<string, string>) => preparedStatementName(supplierInvoicePageQuery('1000001', parse(query)).text);

  it('prepares the equality lists (company, status, documentType), whose generic plan is the custom one', () => {
    expect(name({})).toMatch(/^erp_/);
    expect(name({ status: 'Open', documentType: 'Invoice' })).toMatch(/^erp_/);
  });

  it('leaves time ranges and a supplier (of skewed size) unprepared', () => {
    expect(name({ lastModifiedDateTime: '2026-01-01', lastModifiedDateTimeCondition: '<', status: 'Hold' })).toBeUndefined();
    expect(name({ supplier: 'S1' })).toBeUndefined();
  });
});
