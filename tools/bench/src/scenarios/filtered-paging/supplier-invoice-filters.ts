import type { ClientBase } from 'pg';
import type { FilterCase } from './customer-filters';

/** Before every generated timestamp: every invoice of the company. */
const EVERYTHING_FROM = '2020-01-01T00:00:00';

/** A timestamptz as the API writes it: UTC, no zone, milliseconds. */
const WIRE_TIME = `to_char(%s AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS')`;

const modifiedFrom = (at: string, operator = '>=') => ({ lastModifiedDateTime: at, lastModifiedDateTimeCondition: operator });

/**
 * Every documented filter of `GET /v1/supplierInvoice` alone and in the pairs users combine, with
 * values read from the loaded data: the median `lastModifiedDateTime`, one row's exact timestamp,
 * the largest supplier (the worst case of the skewed distribution) and a median one. Names are
 * prefixed `invoices: `; `invoices: no filter` is the denominator of the invoice cases.
 */
export async function supplierInvoiceFilterCases(sql: ClientBase, companyId: string): Promise<FilterCase[]> {
  const { rows } = await sql.query<{ modified: string; exact: string }>(
    `SELECT ${WIRE_TIME.replace('%s', 'percentile_disc(0.5) WITHIN GROUP (ORDER BY last_modified_at)')} AS modified,
            ${WIRE_TIME.replace('%s', '(array_agg(last_modified_at ORDER BY internal_id))[count(*) / 3]')} AS exact
     FROM supplier_invoices WHERE company_id = $1`,
    [companyId],
  );
  const { modified, exact } = rows[0];
  const suppliers = await sql.query<{ supplier: string }>(
    `SELECT supplier_number AS supplier FROM supplier_invoices WHERE company_id = $1 GROUP BY 1 ORDER BY count(*) DESC, 1`,
    [companyId],
  );
  const largest = suppliers.rows[0].supplier;
  const median = suppliers.rows[Math.floor(suppliers.rows.length / 2)].supplier;
  const cases: FilterCase[] = [
    { name: 'no filter', query: {} },
    { name: 'status=Open', query: { status: 'Open' } },
    { name: 'status=Closed', query: { status: 'Closed' } },
    { name: 'documentType=Invoice', query: { documentType: 'Invoice' } },
    { name: 'documentType=CreditAdj', query: { documentType: 'CreditAdj' } },
    { name: 'supplier (largest)', query: { supplier: largest } },
    { name: 'supplier (median)', query: { supplier: median } },
    { name: 'lastModified >= (all rows)', query: modifiedFrom(EVERYTHING_FROM) },
  ];
  for (const op of ['>=', '>', '<', '<=']) cases.push({ name: `lastModified ${op} median`, query: modifiedFrom(modified, op) });
  cases.push(
    { name: "lastModified = one row's", query: modifiedFrom(exact, '=') },
    { name: 'status + documentType', query: { status: 'Open', documentType: 'Invoice' } },
    { name: 'status + lastModified >= median', query: { status: 'Closed', ...modifiedFrom(modified) } },
    { name: 'documentType + lastModified >= median', query: { documentType: 'Invoice', ...modifiedFrom(modified) } },
    { name: 'supplier (largest) + status', query: { supplier: largest, status: 'Closed' } },
    { name: 'supplier (largest) + lastModified >= median', query: { supplier: largest, ...modifiedFrom(modified) } },
    { name: 'supplier (largest) + documentType', query: { supplier: largest, documentType: 'Invoice' } },
  );
  return cases.map((c) => ({ name: `invoices: ${c.name}`, query: c.query }));
}
