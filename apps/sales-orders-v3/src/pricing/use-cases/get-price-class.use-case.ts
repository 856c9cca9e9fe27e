import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@erp/errors';
import { PriceListsRepository } from '../repository/price-lists.repository';

/** GET /api/v3/PriceClasses/{priceClassId} (an extension): the class's JSON, or 404 when the company has none of that id. */
@Injectable()
export class GetPriceClass {
  constructor(private readonly lists: PriceListsRepository) {}

  async execute(companyId: string, id: string): Promise<string> {
    const json = await this.lists.classJson(companyId, id);
    if (json === undefined) throw new NotFoundError(`Price class ${id}`);
    return json;
  }
}
