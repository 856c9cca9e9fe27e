import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A customer as this service knows it from the customer events. */
export interface CustomerSnapshot {
  customerId: string;
  name: string;
  status: string;
  currencyId: string | null;
}

/** The fields of a customer event this service keeps (CUSTOMER_CREATED / CUSTOMER_UPDATED data). */
export interface CustomerChange {
  number: string;
  name: string;
  status: string;
  currencyId: string | null;
  /** The customer's row version: only a newer version replaces what is stored. */
  version: string;
}

/**
 * The local customer snapshot. Kept up to date by the customer-event consumer (the only writer),
 * read by the order use cases in their own transaction.
 */
@Injectable()
export class CustomerSnapshotsService {
  async find(manager: EntityManager, companyId: string, customerId: string): Promise<CustomerSnapshot | undefined> {
    const rows = await manager.query<Array<{ name: string; status: string; currency_id: string | null }>>(
      `SELECT name, status, currency_id FROM customer_snapshots WHERE company_id = $1 AND customer_id = $2`,
      [companyId, customerId],
    );
    return rows[0] && { customerId, name: rows[0].name, status: rows[0].status, currencyId: rows[0].currency_id };
  }

  /**
   * Applies one customer event. Idempotent and order-tolerant: a redelivered event or one older
   * than what is stored (a lower version) changes nothing. Returns whether the snapshot changed.
   */
  async apply(manager: EntityManager, companyId: string, change: CustomerChange): Promise<boolean> {
    const rows = await manager.query<Array<{ customer_id: string }>>(
      `INSERT INTO customer_snapshots AS s (company_id, customer_id, name, status, currency_id, source_version, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6::bigint, now())
       ON CONFLICT (company_id, customer_id) DO UPDATE
         SET name = EXCLUDED.name, status = EXCLUDED.status, currency_id = EXCLUDED.currency_id,
             source_version = EXCLUDED.source_version, updated_at = now()
         WHERE s.source_version < EXCLUDED.source_version
       RETURNING s.customer_id`,
      [companyId, change.number, change.name, change.status, change.currencyId, change.version],
    );
    return rows.length > 0;
  }
}
