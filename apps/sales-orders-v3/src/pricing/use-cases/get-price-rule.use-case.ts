import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@erp/errors';
import { PriceListsRepository } from '../repository/price-lists.repository';

/** GET of one price class or price list: its JSON, or 404 when the company has none of that id. */
@Injectable()
export class GetPriceRule {
  constructor(private readonly lists: PriceListsRepository) {}

  async priceClass(companyId: string, id: string): Promise<string> {
    const json = await this.lists.classJson(companyId, id);
    if (json === undefined) throw new NotFoundError(`Price class ${id}`);
    return json;
  }

  async priceList(companyId: string, id: string): Promise<string> {
    const json = await this.lists.listJson(companyId, id);
    if (json === undefined) throw new NotFoundError(`Price list ${id}`);
    return json;
  }
}
