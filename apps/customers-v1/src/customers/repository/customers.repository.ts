import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { namedQuery } from '@erp/database';
import { writeTransaction } from '@erp/idempotency';
import {
  CUSTOMER_JSON,
  customerByNumberQuery,
  type CustomerListQuery,
  customerLocationsQuery,
  readCustomerPage,
  readCustomerV3Page,
  streamCustomerPage,
} from '@erp/customers-queries';
import type { CreateCustomerDto, CustomerFieldsDto } from '../dto/customer-write.dto';
import { NameCountScheduler } from '../../name-counts/name-count-scheduler';

/** A customer as the API returns it: its JSON text and its version (the ETag value). */
export interface CustomerRecord {
  number: string;
  json: string;
  version: string;
}

/** The fields a PUT sends; absent ones are left as they are (other properties, such as `number`, are not columns a PUT writes). */
export type CustomerChanges = Partial<CustomerFieldsDto & { name: string }>;

/** How each writable field maps to its column; jsonb objects are merged so PUT changes only what is sent. */
const WRITABLE_COLUMNS: Record<keyof CustomerChanges, { column: string; kind: 'text' | 'merge' | 'replace' }> = {
  name: { column: 'name', kind: 'text' },
  status: { column: 'status', kind: 'text' },
  mainAddress: { column: 'main_address', kind: 'merge' },
  mainContact: { column: 'main_contact', kind: 'merge' },
  corporateId: { column: 'corporate_id', kind: 'text' },
  vatRegistrationId: { column: 'vat_registration_id', kind: 'text' },
  currencyId: { column: 'currency_id', kind: 'text' },
  creditTerms: { column: 'credit_terms', kind: 'replace' },
};

// Stored to the millisecond: what the API shows is exactly what filters compare against.
const NOW_MS = `date_trunc('milliseconds', now())`;
const FIRST_CUSTOMER_NUMBER = 10001;

function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

/** The SET assignments of a PUT and their named parameters (`field_<name>`). */
function assignments(changes: CustomerChanges): { sets: string[]; parameters: Record<string, unknown> } {
  const sets: string[] = [];
  const parameters: Record<string, unknown> = {};
  for (const [field, target] of Object.entries(WRITABLE_COLUMNS)) {
    const value = (changes as Record<string, unknown>)[field];
    if (value === undefined) continue;
    const name = `field_${field}`;
    if (target.kind === 'text') {
      parameters[name] = value;
      sets.push(`${target.column} = :${name}`);
      continue;
    }
    parameters[name] = jsonOrNull(value);
    const p = `:${name}::jsonb`;
    sets.push(
      target.kind === 'merge'
        ? `${target.column} = CASE WHEN ${p} IS NULL THEN NULL ELSE COALESCE(${target.column}, '{}'::jsonb) || ${p} END`
        : `${target.column} = ${p}`,
    );
  }
  return { sets, parameters };
}

/** Persistence of customers: every statement scoped by company; the JSON is built in SQL (@erp/customers-queries). */
@Injectable()
export class CustomersRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly nameCounts: NameCountScheduler,
  ) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    // A keyed request's first write commits with its stored answer (@erp/idempotency).
    return writeTransaction(this.db, work);
  }

  /**
   * One page as the JSON array: a large page that one statement answers streamed from its cursor
   * (streamCustomerPage), else as text (the SQL is shared with the benchmark baseline, tools/bench,
   * which reads every page as text: the same bytes).
   */
  async page(companyId: string, query: CustomerListQuery): Promise<string | Readable> {
    const connect = async () => {
      const runner = this.db.createQueryRunner();
      const client = (await runner.connect()) as PoolClient;
      return { client, release: () => void runner.release() };
    };
    const stream = await streamCustomerPage(connect, companyId, query, this.nameCounts);
    return stream ?? readCustomerPage((text, values) => this.db.query(text, values), companyId, query, this.nameCounts);
  }

  /** One page of the v3 view (`/api/v3/Customers`) through the same page SQL as the v1 list. */
  v3Page(companyId: string, query: CustomerListQuery): Promise<{ items: string[]; totalCount: number }> {
    return readCustomerV3Page((text, values) => this.db.query(text, values), companyId, query);
  }

  /** The customer's locations as JSON texts; undefined when the company has no such customer. */
  async locations(companyId: string, number: string): Promise<string[] | undefined> {
    const q = customerLocationsQuery(companyId, number);
    const rows = await this.db.query<Array<{ json: string }>>(q.text, q.values);
    return rows.length === 0 ? undefined : rows.map((r) => r.json);
  }

  async find(companyId: string, number: string): Promise<CustomerRecord | undefined> {
    const q = customerByNumberQuery(companyId, number);
    const rows = await this.db.query<Array<{ json: string; version: string }>>(q.text, q.values);
    return rows[0] && { number, json: rows[0].json, version: rows[0].version };
  }

  async exists(tx: EntityManager, companyId: string, number: string): Promise<boolean> {
    const rows = await namedQuery(tx, `SELECT 1 FROM customers WHERE company_id = :companyId AND number = :number`, { companyId, number });
    return rows.length > 0;
  }

  /** The company's next customer number from its counter (starting at 10001), in the caller's transaction. */
  async nextNumber(tx: EntityManager, companyId: string): Promise<string> {
    const [row] = await namedQuery<{ last_value: string }>(
      tx,
      `INSERT INTO customer_number_counters (company_id, last_value) VALUES (:companyId, :first)
       ON CONFLICT (company_id) DO UPDATE SET last_value = customer_number_counters.last_value + 1
       RETURNING last_value::text`,
      { companyId, first: FIRST_CUSTOMER_NUMBER },
    );
    return row.last_value;
  }

  /** Inserts unless the number is taken (then returns undefined, without aborting the transaction). */
  async insert(tx: EntityManager, companyId: string, number: string, dto: CreateCustomerDto): Promise<CustomerRecord | undefined> {
    const rows = await namedQuery<{ json: string; version: string }>(
      tx,
      `INSERT INTO customers AS c (company_id, number, name, status, main_address, main_contact, corporate_id,
         vat_registration_id, currency_id, credit_terms, created_at, last_modified_at)
       VALUES (:companyId, :number, :name, :status, :mainAddress::jsonb, :mainContact::jsonb, :corporateId,
         :vatRegistrationId, :currencyId, :creditTerms::jsonb, ${NOW_MS}, ${NOW_MS})
       ON CONFLICT (company_id, number) DO NOTHING
       RETURNING ${CUSTOMER_JSON} AS json, c.version::text AS version`,
      {
        companyId,
        number,
        name: dto.name,
        status: dto.status ?? 'Active',
        mainAddress: jsonOrNull(dto.mainAddress),
        mainContact: jsonOrNull(dto.mainContact),
        corporateId: dto.corporateId ?? null,
        vatRegistrationId: dto.vatRegistrationId ?? null,
        currencyId: dto.currencyId ?? null,
        creditTerms: jsonOrNull(dto.creditTerms),
      },
    );
    return rows[0] && { number, json: rows[0].json, version: rows[0].version };
  }

  /**
   * The conditional UPDATE behind PUT: applies only when the stored version is one of `versions`
   * (null: any), so the version check and the write are one statement. Undefined when nothing matched.
   */
  async updateIfMatch(tx: EntityManager, companyId: string, number: string, versions: string[] | null, changes: CustomerChanges): Promise<CustomerRecord | undefined> {
    const { sets, parameters } = assignments(changes);
    const rows = await namedQuery<{ json: string; version: string }>(
      tx,
      `UPDATE customers AS c SET last_modified_at = ${NOW_MS}, version = nextval('row_version_seq')${sets.map((s) => `, ${s}`).join('')}
       WHERE c.company_id = :companyId AND c.number = :number AND (:versions::bigint[] IS NULL OR c.version = ANY(:versions::bigint[]))
       RETURNING ${CUSTOMER_JSON} AS json, c.version::text AS version`,
      { ...parameters, companyId, number, versions },
    );
    return rows[0] && { number, json: rows[0].json, version: rows[0].version };
  }
}
