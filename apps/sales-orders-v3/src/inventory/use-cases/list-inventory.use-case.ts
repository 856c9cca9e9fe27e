import { Injectable } from '@nestjs/common';
import { v3NextPage, v3PageBodyFromJson } from '@erp/paging';
import type { ListRequest } from '@erp/sales-orders-queries';
import { parseInventoryListQuery } from '../inventory-list.query';
import { InventoryRepository } from '../repository/inventory.repository';

/** GET /api/v3/Inventory: one page in the v3 envelope, as JSON text built by the database. */
@Injectable()
export class ListInventory {
  constructor(private readonly inventory: InventoryRepository) {}

  async execute(companyId: string, rawQuery: Record<string, string | string[] | undefined>, request: ListRequest): Promise<string> {
    const query = parseInventoryListQuery(rawQuery);
    const { items, totalCount } = await this.inventory.page(companyId, query);
    return v3PageBodyFromJson(items, totalCount, v3NextPage(request.path, request.rawQuery, query.page, totalCount));
  }
}
