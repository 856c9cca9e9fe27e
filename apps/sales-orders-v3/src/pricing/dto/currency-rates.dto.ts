import { CollectBodyProblems } from '@erp/errors';
import { DecimalMin, IsExactDecimal } from '@erp/decimals';
import { Matches } from 'class-validator';
import { CURRENCY_ID, CURRENCY_MESSAGE } from '../../inventory/dto/put-inventory-item.dto';
import { NestedArray, Required } from '../../sales-orders/dto/validators';
import { IsCalendarDate } from './price-rules.dto';

export const MAX_RATES = 10_000;
/** numeric(18,8): 10 digits before the point, 8 after. */
export const RATE_LIMITS = { maxIntegerDigits: 10, maxScale: 8 };

/** One rate: from `effectiveDate` on (until the next), 1 unit of `currencyId` = `rate` units of the base currency. */
export class ExchangeRateDto {
  @Required()
  @Matches(CURRENCY_ID, { message: CURRENCY_MESSAGE })
  currencyId: string;

  @Required() @IsCalendarDate() effectiveDate: string;

  @Required()
  @IsExactDecimal(RATE_LIMITS)
  @DecimalMin(0, { exclusive: true })
  rate: number | string;
}

/** PUT /api/v3/CurrencyRates (an extension): the company's base currency and all its exchange rates, replaced whole. */
@CollectBodyProblems()
export class PutCurrencyRatesDto {
  @Required()
  @Matches(CURRENCY_ID, { message: `baseCurrencyId must be an ISO 4217 code such as NOK or EUR` })
  baseCurrencyId: string;

  @NestedArray(() => ExchangeRateDto, MAX_RATES)
  rates?: ExchangeRateDto[];
}
