import { Client } from 'pg';

/**
 * Bulk customers straight into customers-v1's database (`<prefix>00001`, ...; all Active), for
 * suites where creating them through the API is not what they show.
 */
export async function insertCustomers(databaseUrl: string, companyId: string, count: number, prefix: string): Promise<void> {
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    await sql.query(
      `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at)
       SELECT $1, $2 || lpad(i::text, 5, '0'), 'Customer ' || i, 'Active', now(), now()
       FROM generate_series(1, $3::int) AS i ORDER BY i`,
      [companyId, prefix, count],
    );
  } finally {
    await sql.end();
  }
}
