import { Client, type ClientBase } from 'pg';

/** One list request the scenario times: a label and the query (without paging). */
export interface FilterCase {
  name: string;
  query: Record<string, string>;
}

// The name fragment: one of the generator's 14 second name parts, so about 7% of the rows.
const NAME_FRAGMENT = 'bygg';
// Before every generated timestamp: the whole company, the full incremental sync's filter.
export const SYNC_FROM = '2020-01-01T00:00:00';

/** A timestamptz as the API writes it: UTC, no zone, milliseconds. */
const WIRE_TIME = `to_char(%s AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS')`;

/**
 * Every documented filter of `GET /v1/customer` alone and in the pairs integrations use, with
 * values read from the loaded data (the medians of both timestamps, one row's exact timestamp and
 * identifiers), so each one matches a known, realistic share of the company.
 */
export async function customerFilterCases(sql: ClientBase, companyId: string): Promise<FilterCase[]> {
  const { rows } = await sql.query<Record<string, string>>(
    `SELECT ${WIRE_TIME.replace('%s', 'percentile_disc(0.5) WITHIN GROUP (ORDER BY last_modified_at)')} AS modified,
            ${WIRE_TIME.replace('%s', 'percentile_disc(0.5) WITHIN GROUP (ORDER BY created_at)')} AS created
     FROM customers WHERE company_id = $1`,
    [companyId],
  );
  const { modified, created } = rows[0];
  const sample = await sql.query<Record<string, string>>(
    `SELECT ${WIRE_TIME.replace('%s', 'last_modified_at')} AS modified, ${WIRE_TIME.replace('%s', 'created_at')} AS created,
            corporate_id, vat_registration_id
     FROM customers WHERE company_id = $1 AND vat_registration_id IS NOT NULL AND status = 'Active'
     ORDER BY internal_id OFFSET (SELECT count(*) / 3 FROM customers WHERE company_id = $1) LIMIT 1`,
    [companyId],
  );
  const row = sample.rows[0];
  const cases: FilterCase[] = [
    { name: 'no filter', query: {} },
    { name: 'status=Active', query: { status: 'Active' } },
    { name: 'lastModified >= (all rows)', query: { lastModifiedDateTime: SYNC_FROM, lastModifiedDateTimeCondition: '>=' } },
  ];
  for (const [field, mid, exact] of [
    ['lastModifiedDateTime', modified, row.modified],
    ['createdDateTime', created, row.created],
  ] as const) {
    for (const op of ['>=', '>', '<', '<=']) cases.push({ name: `${field} ${op} median`, query: { [field]: mid, [`${field}Condition`]: op } });
    cases.push({ name: `${field} = one row's`, query: { [field]: exact, [`${field}Condition`]: '=' } });
  }
  cases.push(
    { name: `name=${NAME_FRAGMENT}`, query: { name: NAME_FRAGMENT } },
    { name: 'vatRegistrationId', query: { vatRegistrationId: row.vat_registration_id } },
    { name: 'corporateId', query: { corporateId: row.corporate_id } },
    { name: 'status + lastModified >= median', query: { status: 'Active', lastModifiedDateTime: modified, lastModifiedDateTimeCondition: '>=' } },
    { name: 'status + created < median', query: { status: 'Active', createdDateTime: created, createdDateTimeCondition: '<' } },
    {
      name: 'lastModified >= median + created < median',
      query: { lastModifiedDateTime: modified, lastModifiedDateTimeCondition: '>=', createdDateTime: created, createdDateTimeCondition: '<' },
    },
    { name: `name + status`, query: { name: NAME_FRAGMENT, status: 'Active' } },
    { name: `name + lastModified >= median`, query: { name: NAME_FRAGMENT, lastModifiedDateTime: modified, lastModifiedDateTimeCondition: '>=' } },
    { name: 'vatRegistrationId + status', query: { vatRegistrationId: row.vat_registration_id, status: 'Active' } },
    { name: 'corporateId + lastModified >= median', query: { corporateId: row.corporate_id, lastModifiedDateTime: modified, lastModifiedDateTimeCondition: '>=' } },
  );
  return cases;
}

/** customers-v1's default `CUSTOMER_NAME_COUNT_MIN_MATCHES`, which the bench runs with. */
const NAME_COUNT_MIN_MATCHES = 5000;

/**
 * Waits until customers-v1 keeps counts of `name` for the company (it registers them in the
 * background after a request whose exact count found `matches`, when that is at least
 * NAME_COUNT_MIN_MATCHES; see its README), so that the timed requests measure the steady state.
 * The first request's time is reported apart (`firstRequestMs`). Gives up after `timeoutMs`: the
 * timed requests then show the uncounted cost.
 */
export async function waitForNameCounts(databaseUrl: string, companyId: string, name: string, matches: number, timeoutMs = 60_000): Promise<void> {
  if (matches < NAME_COUNT_MIN_MATCHES) return;
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
      // Registered and complete: a fragment still `building` (customers-v1 1766400000000) is not read yet;
      // before that migration there was no state (to_jsonb keeps the query valid for a before run).
      const { rows } = await sql.query(`SELECT 1 FROM customer_name_fragments f WHERE company_id = $1 AND fragment = $2 AND coalesce(to_jsonb(f) ->> 'state', 'ready') = 'ready'`, [companyId, name.toLowerCase()]);
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await sql.end();
  }
}
