import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@erp/errors';
import { PriceListsRepository } from '../repository/price-lists.repository';

/** GET /api/v3/PriceLists/{priceListId} (an extension): the list's JSON with its entries, or 404 when the company has none of that id. */
@Injectable()
export class GetPriceList {
  constructor(private readonly lists: PriceListsRepository) {}

  async execute(companyId: string, id: string): Promise<string> {
    const json = await this.lists.listJson(companyId, id);
    if (json === undefined) throw new NotFoundError(`Price list ${id}`);
    return json;
  }
}
