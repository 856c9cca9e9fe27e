import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { namedQuery, updateOrInsert } from '@erp/database';
import { writeTransaction } from '@erp/idempotency';

/** A price list entry as stored: decimals and dates as exact text, null where not set. */
export interface PriceListEntryRecord {
  inventory_id: string;
  customer_id: string | null;
  price_class_id: string | null;
  min_quantity: string;
  unit_price: string;
  discount_percent: string | null;
  effective_from: string | null;
  effective_to: string | null;
}

const NOW_MS = `date_trunc('milliseconds', now())`;
const LAST_MODIFIED = `to_char(last_modified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The JSON of a price class (members sorted), built in PostgreSQL. */
const CLASS_JSON = `SELECT json_build_object('priceClassId', c.price_class_id, 'description', c.description,
    'customers', coalesce((SELECT json_agg(m.customer_id ORDER BY m.customer_id) FROM customer_price_classes m
                           WHERE m.company_id = c.company_id AND m.price_class_id = c.price_class_id), '[]'),
    'lastModified', ${LAST_MODIFIED.replace('last_modified_at', 'c.last_modified_at')})::text AS json
  FROM price_classes c WHERE c.company_id = :companyId AND c.price_class_id = :id`;

/** The JSON of a price list, its entries in the order sent; decimals as exact JSON numbers. */
const LIST_JSON = `SELECT json_build_object('priceListId', p.price_list_id, 'description', p.description, 'currencyId', p.currency_id,
    'entries', coalesce((SELECT json_agg(json_build_object('inventoryId', e.inventory_id, 'customerId', e.customer_id,
        'priceClassId', e.price_class_id, 'minQuantity', trim_scale(e.min_quantity), 'unitPrice', trim_scale(e.unit_price),
        'discountPercent', trim_scale(e.discount_percent), 'effectiveFrom', e.effective_from, 'effectiveTo', e.effective_to) ORDER BY e.entry_no)
      FROM price_list_entries e WHERE e.company_id = p.company_id AND e.price_list_id = p.price_list_id), '[]'),
    'lastModified', ${LAST_MODIFIED.replace('last_modified_at', 'p.last_modified_at')})::text AS json
  FROM price_lists p WHERE p.company_id = :companyId AND p.price_list_id = :id`;

/** Persistence of price classes and price lists (the price rules' extension endpoints); every statement scoped by company. */
@Injectable()
export class PriceListsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    // A keyed request's first write commits with its stored answer (@erp/idempotency).
    return writeTransaction(this.db, work);
  }

  async classJson(companyId: string, id: string, manager: EntityManager = this.db.manager): Promise<string | undefined> {
    return (await namedQuery<{ json: string }>(manager, CLASS_JSON, { companyId, id }))[0]?.json;
  }

  async listJson(companyId: string, id: string, manager: EntityManager = this.db.manager): Promise<string | undefined> {
    return (await namedQuery<{ json: string }>(manager, LIST_JSON, { companyId, id }))[0]?.json;
  }

  /** Which of the price classes exist, held (`FOR KEY SHARE`) until the caller's transaction ends. */
  async existingClasses(tx: EntityManager, companyId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await namedQuery<{ price_class_id: string }>(
      tx,
      `SELECT price_class_id FROM price_classes WHERE company_id = :companyId AND price_class_id = ANY(CAST(:ids AS text[])) FOR KEY SHARE`,
      { companyId, ids },
    );
    return new Set(rows.map((r) => r.price_class_id));
  }

  /**
   * Creates or replaces the class and its members. Answers whether it was created and the members
   * another class already holds (the caller refuses the write then; the unique customer key decides
   * races between two classes, so this never fails on a concurrent PUT).
   */
  async putClass(tx: EntityManager, companyId: string, id: string, description: string | null, customers: string[]): Promise<{ created: boolean; taken: Map<string, string> }> {
    const { created } = await updateOrInsert(
      tx,
      {
        update: `UPDATE price_classes SET description = :description, last_modified_at = ${NOW_MS} WHERE company_id = :companyId AND price_class_id = :id RETURNING 1`,
        insert: `INSERT INTO price_classes (company_id, price_class_id, description, last_modified_at) VALUES (:companyId, :id, :description, ${NOW_MS})
                 ON CONFLICT (company_id, price_class_id) DO NOTHING RETURNING 1`,
      },
      { companyId, id, description },
    );
    await namedQuery(tx, `DELETE FROM customer_price_classes WHERE company_id = :companyId AND price_class_id = :id`, { companyId, id });
    const inserted = await namedQuery<{ customer_id: string }>(
      tx,
      `INSERT INTO customer_price_classes (company_id, customer_id, price_class_id)
       SELECT :companyId, c, :id FROM unnest(CAST(:customers AS text[])) AS c
       ON CONFLICT (company_id, customer_id) DO NOTHING RETURNING customer_id`,
      { companyId, id, customers },
    );
    const placed = new Set(inserted.map((r) => r.customer_id));
    const missing = customers.filter((c) => !placed.has(c));
    if (missing.length === 0) return { created, taken: new Map() };
    const holders = await namedQuery<{ customer_id: string; price_class_id: string }>(
      tx,
      `SELECT customer_id, price_class_id FROM customer_price_classes WHERE company_id = :companyId AND customer_id = ANY(CAST(:missing AS text[]))`,
      { companyId, missing },
    );
    return { created, taken: new Map(holders.map((h) => [h.customer_id, h.price_class_id])) };
  }

  /** Creates or replaces the list with its entries (numbered in the order sent). Answers whether it was created. */
  async putList(tx: EntityManager, companyId: string, id: string, list: { description: string | null; currencyId: string }, entries: PriceListEntryRecord[]): Promise<boolean> {
    const { created } = await updateOrInsert(
      tx,
      {
        update: `UPDATE price_lists SET description = :description, currency_id = :currencyId, last_modified_at = ${NOW_MS}
                 WHERE company_id = :companyId AND price_list_id = :id RETURNING 1`,
        insert: `INSERT INTO price_lists (company_id, price_list_id, description, currency_id, last_modified_at)
                 VALUES (:companyId, :id, :description, :currencyId, ${NOW_MS})
                 ON CONFLICT (company_id, price_list_id) DO NOTHING RETURNING 1`,
      },
      { companyId, id, ...list },
    );
    await namedQuery(tx, `DELETE FROM price_list_entries WHERE company_id = :companyId AND price_list_id = :id`, { companyId, id });
    await namedQuery(
      tx,
      `INSERT INTO price_list_entries (company_id, price_list_id, entry_no, inventory_id, customer_id, price_class_id, min_quantity,
         unit_price, discount_percent, effective_from, effective_to)
       SELECT :companyId, :id, x.n, x.inventory_id, x.customer_id, x.price_class_id, x.min_quantity, x.unit_price, x.discount_percent,
         x.effective_from, x.effective_to
       FROM jsonb_to_recordset(CAST(:entries AS jsonb)) AS x(n int, inventory_id text, customer_id text, price_class_id text,
         min_quantity numeric(18,6), unit_price numeric(18,6), discount_percent numeric(7,4), effective_from date, effective_to date)`,
      { companyId, id, entries: JSON.stringify(entries.map((e, i) => ({ n: i + 1, ...e }))) },
    );
    return created;
  }
}
