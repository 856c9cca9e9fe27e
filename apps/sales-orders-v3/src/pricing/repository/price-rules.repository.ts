import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { namedQuery } from '@erp/database';
import type { UnpricedLine } from '../../sales-orders/rules/line-pricing-rules';
import { REPRICE_LINES_SQL } from './price-rules.sql';

/** Applies the price rules to an order's lines, in the order write's transaction (SQL in price-rules.sql.ts). */
@Injectable()
export class PriceRulesRepository {
  /** Reprices the lines (null: every line of the order); answers those no rule prices. */
  async reprice(tx: EntityManager, companyId: string, internalId: string, lineIds: number[] | null): Promise<UnpricedLine[]> {
    const rows = await namedQuery<{ line_id: number; inventory_id: string; currency_id: string | null; day: string }>(tx, REPRICE_LINES_SQL, {
      companyId,
      internalId,
      lineIds,
    });
    return rows.map((r) => ({ lineId: r.line_id, inventoryId: r.inventory_id, currencyId: r.currency_id, day: r.day }));
  }
}
