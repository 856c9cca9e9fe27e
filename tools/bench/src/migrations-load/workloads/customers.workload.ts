import { OUTBOX_FILL, RUNNER_TABLES } from './messaging.workload';
import { IDEMPOTENCY_KEYS_FILL, idempotencyKeyInsert } from './idempotency.workload';
import { companyOf, companySql, outboxInsert, type ServiceWorkload } from './workload';

const NAMES = `(ARRAY['Bygg', 'Data', 'Konsult', 'Handel', 'Transport', 'El', 'Måleri', 'Städ'])`;
const STATUSES = `(ARRAY['Active', 'Active', 'Active', 'Active', 'Active', 'Active', 'Active', 'Active', 'Inactive', 'OnHold'])`;
const FIRST_NUMBER = 10_000;

/**
 * customers-v1: `customers` grows with the business (a million in one company is normal). Its
 * writes are the PUT (UPDATE by company and number, a new version, the outbox event) and the POST
 * (the company's counter, the INSERT, the outbox event, its Idempotency-Key row), in the request's
 * company scope.
 */
export const CUSTOMERS_WORKLOAD: ServiceWorkload = {
  service: 'customers-v1',
  writesAs: 'company',
  fills: [
    {
      table: 'customers',
      sql: (rows) => [
        `INSERT INTO customers (internal_id, company_id, number, name, status, main_address, currency_id, created_at, last_modified_at)
         OVERRIDING SYSTEM VALUE
         SELECT i, ${companySql('i')}, (${FIRST_NUMBER} + i)::text,
                ${NAMES}[1 + i % 8] || ' ' || (i::bigint * 7919 % 100000) || ' AB', ${STATUSES}[1 + i % 10],
                jsonb_build_object('addressLine1', 'Gatan ' || i % 300, 'city', 'Stad ' || i % 500, 'countryId', 'SE'), 'SEK',
                now() - interval '3 years' + i * (interval '3 years' / ${rows}),
                now() - interval '3 years' + i * (interval '3 years' / ${rows}) + (i % 90) * interval '1 day'
         FROM generate_series(1, ${rows}) i`,
        `SELECT setval(pg_get_serial_sequence('customers', 'internal_id'), ${rows})`,
        `INSERT INTO customer_number_counters (company_id, last_value) SELECT ${companySql('k')}, ${FIRST_NUMBER + rows} FROM generate_series(0, 2) k`,
      ],
    },
    OUTBOX_FILL,
    IDEMPOTENCY_KEYS_FILL,
  ],
  bounded: {
    ...RUNNER_TABLES,
    customer_number_counters: 'one row per company',
    customer_list_buckets: 'counts derived from customers by its triggers (a row per 16,384 ids and status)',
    customer_time_buckets: 'counts derived from customers by its triggers',
    customer_name_fragments: 'a few kept name fragments per company',
    customer_name_cells: 'counts derived from customers per kept fragment (none kept in the bench)',
    customer_name_registrations: 'one row per company',
    customer_name_retries: 'fragments refused lately, per company',
  },
  writes: [
    {
      name: 'PUT customer',
      weight: 4,
      needs: ['customers'],
      build(context) {
        const id = context.random(context.rows);
        const company = companyOf(id);
        return {
          company,
          statements: [
            {
              text: `UPDATE customers AS c SET last_modified_at = now(), version = nextval('row_version_seq'), main_contact = $3::jsonb
                     WHERE c.company_id = $1 AND c.number = $2`,
              values: [company, String(FIRST_NUMBER + id), JSON.stringify({ email: `c${id}@example.com` })],
            },
            ...outboxInsert(context, 'CUSTOMER_UPDATED', `${company}:${id}`),
          ],
        };
      },
    },
    {
      name: 'POST customer',
      weight: 1,
      needs: ['customers', 'customer_number_counters'],
      build(context) {
        const company = companyOf(context.nextId());
        return {
          company,
          statements: [
            {
              text: `WITH n AS (
                       INSERT INTO customer_number_counters (company_id, last_value) VALUES ($1, ${FIRST_NUMBER + 1})
                       ON CONFLICT (company_id) DO UPDATE SET last_value = customer_number_counters.last_value + 1 RETURNING last_value)
                     INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at)
                     SELECT $1, n.last_value::text, $2, 'Active', now(), now() FROM n`,
              values: [company, `Ny kund ${context.nextId()} Bygg AB`],
            },
            ...outboxInsert(context, 'CUSTOMER_CREATED', company),
            ...idempotencyKeyInsert(context, company),
          ],
        };
      },
    },
  ],
};
