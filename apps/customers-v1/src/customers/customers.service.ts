import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '@erp/database';
import { ApiError, NotFoundError, PreconditionFailedError, ValidationFailedError } from '@erp/errors';
import { type IfMatchCondition, versionsForUpdate } from '@erp/etag';
import { CUSTOMER_JSON, customerByNumberQuery, parseCustomerListQuery, readCustomerPage } from '@erp/customers-queries';
import { customerLink, type CustomerStatus } from '@erp/contracts';
import { Outbox } from '@erp/messaging';
import type { CreateCustomerDto, CustomerFieldsDto, UpdateCustomerDto } from './dto/customer-write.dto';

export const CUSTOMER_SETTINGS = Symbol('CUSTOMER_SETTINGS');
export interface CustomerSettings {
  maxPageSize: number;
}

/** A customer as the API returns it: its JSON text and its version (the ETag value). */
export interface CustomerRecord {
  number: string;
  json: string;
  version: string;
}

/** How each writable field maps to its column; jsonb objects are merged so PUT changes only what is sent. */
const WRITABLE_COLUMNS: Record<
  keyof CustomerFieldsDto | 'name',
  { column: string; kind: 'text' | 'merge' | 'replace' }
> = {
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
const MAX_NUMBER_ATTEMPTS = 50;

function jsonOrNull(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

@Injectable()
export class CustomersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(CUSTOMER_SETTINGS) private readonly settings: CustomerSettings,
    private readonly outbox: Outbox,
  ) {}

  get maxPageSize(): number {
    return this.settings.maxPageSize;
  }

  /** One page as a JSON array text (the SQL is shared with the benchmark baseline, tools/bench). */
  async list(companyId: string, rawQuery: Record<string, string | string[] | undefined>): Promise<string> {
    const query = parseCustomerListQuery(rawQuery, this.settings.maxPageSize);
    return readCustomerPage((text, values) => this.db.query(text, values), companyId, query);
  }

  async get(companyId: string, number: string): Promise<CustomerRecord> {
    const q = customerByNumberQuery(companyId, number);
    const rows = await this.db.query<Array<{ json: string; version: string }>>(q.text, q.values);
    if (rows.length === 0) throw new NotFoundError(`Customer ${number}`);
    return { number, json: rows[0].json, version: rows[0].version };
  }

  async create(companyId: string, dto: CreateCustomerDto): Promise<CustomerRecord> {
    return this.db.transaction(async (tx) => {
      if (dto.number !== undefined) {
        const created = await this.insert(tx, companyId, dto.number, dto);
        if (!created) {
          throw new ApiError('DuplicateValue', `A customer with number ${dto.number} already exists`, {
            fieldProblems: [{ field: 'number', message: 'is already in use', code: '0002-InvalidValue' }],
          });
        }
        await this.addEvent(tx, companyId, 'CUSTOMER_CREATED', created);
        return created;
      }
      // Numbers a client chose may collide with the sequence; skip those rather than fail.
      for (let attempt = 0; attempt < MAX_NUMBER_ATTEMPTS; attempt++) {
        const created = await this.insert(tx, companyId, await this.nextNumber(tx, companyId), dto);
        if (created) {
          await this.addEvent(tx, companyId, 'CUSTOMER_CREATED', created);
          return created;
        }
      }
      throw new Error('Could not assign a free customer number');
    });
  }

  /** PUT: changes only the fields present. The version check and the write are one UPDATE. */
  async update(
    companyId: string,
    number: string,
    dto: UpdateCustomerDto,
    ifMatch: IfMatchCondition | undefined,
  ): Promise<CustomerRecord> {
    if (dto.number !== undefined && dto.number !== number) {
      throw ValidationFailedError.of('number', 'cannot be changed; it must equal the number in the path');
    }
    const values: unknown[] = [companyId, number, versionsForUpdate(ifMatch)];
    const sets = [`last_modified_at = ${NOW_MS}`, `version = nextval('row_version_seq')`];
    for (const [field, target] of Object.entries(WRITABLE_COLUMNS)) {
      const value = (dto as Record<string, unknown>)[field];
      if (value === undefined) continue;
      if (target.kind === 'text') {
        values.push(value);
        sets.push(`${target.column} = $${values.length}`);
      } else {
        values.push(jsonOrNull(value));
        const p = `$${values.length}::jsonb`;
        sets.push(
          target.kind === 'merge'
            ? `${target.column} = CASE WHEN ${p} IS NULL THEN NULL ELSE COALESCE(${target.column}, '{}'::jsonb) || ${p} END`
            : `${target.column} = ${p}`,
        );
      }
    }
    return this.db.transaction(async (tx) => {
      const rows = await queryRows<{ json: string; version: string }>(
        tx,
        `UPDATE customers AS c SET ${sets.join(', ')}
         WHERE c.company_id = $1 AND c.number = $2 AND ($3::bigint[] IS NULL OR c.version = ANY($3::bigint[]))
         RETURNING ${CUSTOMER_JSON} AS json, c.version::text AS version`,
        values,
      );
      if (rows.length === 0) {
        const exists = await tx.query(`SELECT 1 FROM customers WHERE company_id = $1 AND number = $2`, [
          companyId,
          number,
        ]);
        if (exists.length === 0) throw new NotFoundError(`Customer ${number}`);
        throw new PreconditionFailedError();
      }
      const updated = { number, json: rows[0].json, version: rows[0].version };
      await this.addEvent(tx, companyId, 'CUSTOMER_UPDATED', updated);
      return updated;
    });
  }

  /**
   * The change's event, in the change's transaction: it is published exactly when the change
   * commits. Added after the write, which holds the customer's row lock, so two changes of one
   * customer reach the outbox (and Kafka) in commit order.
   */
  private async addEvent(
    tx: EntityManager,
    companyId: string,
    type: 'CUSTOMER_CREATED' | 'CUSTOMER_UPDATED',
    customer: CustomerRecord,
  ): Promise<void> {
    const wire = JSON.parse(customer.json) as {
      name: string;
      status: CustomerStatus;
      currencyId: string | null;
      lastModifiedDateTime: string;
    };
    await this.outbox.add(tx, {
      type,
      companyId,
      subject: customer.number,
      // The API shows UTC without a zone; the envelope's time carries it.
      time: `${wire.lastModifiedDateTime}Z`,
      data: {
        number: customer.number,
        name: wire.name,
        status: wire.status,
        currencyId: wire.currencyId,
        version: customer.version,
        lastModifiedDateTime: wire.lastModifiedDateTime,
        link: customerLink(customer.number),
      },
    });
  }

  private async nextNumber(tx: EntityManager, companyId: string): Promise<string> {
    const rows = await tx.query<Array<{ last_value: string }>>(
      `INSERT INTO customer_number_counters (company_id, last_value) VALUES ($1, $2)
       ON CONFLICT (company_id) DO UPDATE SET last_value = customer_number_counters.last_value + 1
       RETURNING last_value::text`,
      [companyId, FIRST_CUSTOMER_NUMBER],
    );
    return rows[0].last_value;
  }

  /** Inserts unless the number is taken (then returns undefined, without aborting the transaction). */
  private async insert(
    tx: EntityManager,
    companyId: string,
    number: string,
    dto: CreateCustomerDto,
  ): Promise<CustomerRecord | undefined> {
    const rows = await tx.query<Array<{ json: string; version: string }>>(
      `INSERT INTO customers AS c (company_id, number, name, status, main_address, main_contact, corporate_id,
         vat_registration_id, currency_id, credit_terms, created_at, last_modified_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10::jsonb, ${NOW_MS}, ${NOW_MS})
       ON CONFLICT (company_id, number) DO NOTHING
       RETURNING ${CUSTOMER_JSON} AS json, c.version::text AS version`,
      [
        companyId,
        number,
        dto.name,
        dto.status ?? 'Active',
        jsonOrNull(dto.mainAddress),
        jsonOrNull(dto.mainContact),
        dto.corporateId ?? null,
        dto.vatRegistrationId ?? null,
        dto.currencyId ?? null,
        jsonOrNull(dto.creditTerms),
      ],
    );
    return rows.length === 0 ? undefined : { number, json: rows[0].json, version: rows[0].version };
  }
}
