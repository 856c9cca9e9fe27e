import type { Provider } from '@nestjs/common';
import { CurrencyRatesRepository } from './repository/currency-rates.repository';
import { PriceListsRepository } from './repository/price-lists.repository';
import { PriceRulesRepository } from './repository/price-rules.repository';
import { GetCurrencyRates } from './use-cases/get-currency-rates.use-case';
import { GetPriceClass } from './use-cases/get-price-class.use-case';
import { GetPriceList } from './use-cases/get-price-list.use-case';
import { PriceOrderLines } from './use-cases/price-order-lines.use-case';
import { PutCurrencyRates } from './use-cases/put-currency-rates.use-case';
import { PutPriceClass } from './use-cases/put-price-class.use-case';
import { PutPriceList } from './use-cases/put-price-list.use-case';

/**
 * The price rules: the use cases of the extension endpoints (price classes, price lists, currency
 * rates; one per operation), `PriceOrderLines` (which the order write use cases run in their
 * transactions), and the repositories they write through.
 */
export const PRICING_PROVIDERS: Provider[] = [
  PriceListsRepository,
  PriceRulesRepository,
  CurrencyRatesRepository,
  PutPriceClass,
  GetPriceClass,
  PutPriceList,
  GetPriceList,
  PutCurrencyRates,
  GetCurrencyRates,
  PriceOrderLines,
];
