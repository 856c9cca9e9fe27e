import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { namedQuery } from '@erp/database';

/** A customer as this service knows it from the customer events. */
export interface CustomerSnapshot {
  customerId: string;
  name: string;
  status: string;
  currencyId: string | null;
  /** The customer's row version the snapshot holds. */
  version: string;
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
 * The local customer snapshot. Written from the customer events and, when an order names a
 * customer whose event has not arrived yet, from customers-v1's answer (`CustomerReferences`):
 * both carry the customer's version, and the newer one wins whichever comes first.
 */
@Injectable()
export class CustomerSnapshotsService {
  async find(manager: EntityManager, companyId: string, customerId: string): Promise<CustomerSnapshot | undefined> {
    const rows = await namedQuery<{ name: string; status: string; currency_id: string | null; version: string }>(
      manager,
      `SELECT name, status, currency_id, source_version::text AS version FROM customer_snapshots WHERE company_id = :companyId AND customer_id = :customerId`,
      { companyId, customerId },
    );
    return rows[0] && { customerId, name: rows[0].name, status: rows[0].status, currencyId: rows[0].currency_id, version: rows[0].version };
  }

  /** Which of the customer numbers the snapshot holds (any status). */
  async known(manager: EntityManager, companyId: string, customerIds: string[]): Promise<Set<string>> {
    if (customerIds.length === 0) return new Set();
    const rows = await namedQuery<{ customer_id: string }>(
      manager,
      `SELECT customer_id FROM customer_snapshots WHERE company_id = :companyId AND customer_id = ANY(CAST(:ids AS text[]))`,
      { companyId, ids: customerIds },
    );
    return new Set(rows.map((r) => r.customer_id));
  }

  /**
   * Applies one customer event. Idempotent and order-tolerant: a redelivered event or one older
   * than what is stored (a lower version) changes nothing. Returns whether the snapshot changed.
   */
  async apply(manager: EntityManager, companyId: string, change: CustomerChange): Promise<boolean> {
    const rows = await namedQuery<{ customer_id: string }>(
      manager,
      `INSERT INTO customer_snapshots AS s (company_id, customer_id, name, status, currency_id, source_version, updated_at)
       VALUES (:companyId, :customerId, :name, :status, :currencyId, :version::bigint, now())
       ON CONFLICT (company_id, customer_id) DO UPDATE
         SET name = EXCLUDED.name, status = EXCLUDED.status, currency_id = EXCLUDED.currency_id,
             source_version = EXCLUDED.source_version, updated_at = now()
         WHERE s.source_version < EXCLUDED.source_version
       RETURNING s.customer_id`,
      { companyId, customerId: change.number, name: change.name, status: change.status, currencyId: change.currencyId, version: change.version },
    );
    return rows.length > 0;
  }
}
