import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { namedQuery, updateOrInsert } from '@erp/database';

/** The company's base currency and exchange rates as JSON (rates by currency, then date), built in PostgreSQL. */
const RATES_JSON = `SELECT json_build_object('baseCurrencyId', c.base_currency_id,
    'rates', coalesce((SELECT json_agg(json_build_object('currencyId', r.currency_id, 'effectiveDate', r.effective_date, 'rate', trim_scale(r.rate))
                                ORDER BY r.currency_id, r.effective_date)
                       FROM exchange_rates r WHERE r.company_id = c.company_id), '[]'),
    'lastModified', to_char(c.last_modified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text AS json
  FROM company_currencies c WHERE c.company_id = :companyId`;

/** Persistence of a company's base currency and exchange rates; every statement scoped by company. */
@Injectable()
export class CurrencyRatesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async json(companyId: string, manager: EntityManager = this.db.manager): Promise<string | undefined> {
    return (await namedQuery<{ json: string }>(manager, RATES_JSON, { companyId }))[0]?.json;
  }

  /** Replaces the base currency and every rate in one transaction; answers the stored JSON and whether it was the first PUT. */
  async replace(companyId: string, baseCurrencyId: string, rates: Array<{ currency_id: string; effective_date: string; rate: string }>): Promise<{ json: string; created: boolean }> {
    return this.db.transaction(async (tx) => {
      const { created } = await updateOrInsert(
        tx,
        {
          update: `UPDATE company_currencies SET base_currency_id = :baseCurrencyId, last_modified_at = date_trunc('milliseconds', now())
                   WHERE company_id = :companyId RETURNING 1`,
          insert: `INSERT INTO company_currencies (company_id, base_currency_id, last_modified_at) VALUES (:companyId, :baseCurrencyId, date_trunc('milliseconds', now()))
                   ON CONFLICT (company_id) DO NOTHING RETURNING 1`,
        },
        { companyId, baseCurrencyId },
      );
      await namedQuery(tx, `DELETE FROM exchange_rates WHERE company_id = :companyId`, { companyId });
      await namedQuery(
        tx,
        `INSERT INTO exchange_rates (company_id, currency_id, effective_date, rate)
         SELECT :companyId, x.currency_id, x.effective_date, x.rate
         FROM jsonb_to_recordset(CAST(:rates AS jsonb)) AS x(currency_id text, effective_date date, rate numeric(18,8))`,
        { companyId, rates: JSON.stringify(rates) },
      );
      return { json: (await this.json(companyId, tx)) as string, created };
    });
  }
}
