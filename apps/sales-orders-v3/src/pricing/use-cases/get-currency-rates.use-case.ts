import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@erp/errors';
import { CurrencyRatesRepository } from '../repository/currency-rates.repository';

/** GET /api/v3/CurrencyRates (an extension): the company's base currency and exchange rates, or 404 before the first PUT. */
@Injectable()
export class GetCurrencyRates {
  constructor(private readonly rates: CurrencyRatesRepository) {}

  async execute(companyId: string): Promise<string> {
    const json = await this.rates.json(companyId);
    if (json === undefined) throw new NotFoundError('Currency rates (no base currency set)');
    return json;
  }
}
