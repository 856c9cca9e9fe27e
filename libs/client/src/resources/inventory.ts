import type { Transport } from '../http/transport';
import { listV3, type V3ListOptions } from '../paging/v3-list';
import type { InventoryExpand, InventoryItem, InventoryItemPut, InventoryQuery } from '../types';

const PATH = '/api/v3/Inventory';

/** `/api/v3/Inventory`: the company's inventory items, which sales order lines reference. */
export class InventoryApi {
  constructor(private readonly transport: Transport) {}

  /** Every item matching `query`, following `nextPage`; `expand` adds locations and/or attributes. */
  list(query: InventoryQuery = {}, options: V3ListOptions & { pageSize?: number; expand?: readonly InventoryExpand[] } = {}): AsyncGenerator<InventoryItem, void, undefined> {
    const expand = options.expand?.length ? options.expand.join(',') : undefined;
    return listV3<InventoryItem>(this.transport, PATH, { ...query, expand, pageSize: options.pageSize }, options);
  }

  /**
   * Creates or replaces an item (`PUT /api/v3/Inventory/{inventoryId}`, an extension of the v3
   * document): the whole item, what `item` leaves out is empty afterwards. Answers the item with its
   * locations and attributes. Not retried (a write).
   */
  async put(inventoryId: string, item: InventoryItemPut = {}): Promise<InventoryItem> {
    return (await this.transport.request<InventoryItem>('PUT', `${PATH}/${encodeURIComponent(inventoryId)}`, { body: item })).data;
  }
}
