import { Module } from '@nestjs/common';
import { InventoryModule } from '../inventory/inventory.module';
import { PriceRulesController } from './price-rules.controller';
import { CurrencyRatesRepository } from './repository/currency-rates.repository';
import { PriceListsRepository } from './repository/price-lists.repository';
import { CurrencyRates } from './use-cases/currency-rates.use-case';
import { PriceRulesRepository } from './repository/price-rules.repository';
import { GetPriceRule } from './use-cases/get-price-rule.use-case';
import { PriceOrderLines } from './use-cases/price-order-lines';
import { PutPriceClass } from './use-cases/put-price-class.use-case';
import { PutPriceList } from './use-cases/put-price-list.use-case';

/**
 * The price rules: customer price classes and price lists (extension endpoints), and the pricing of
 * order lines the order use cases run in their transactions (`PriceOrderLines`, exported).
 */
@Module({
  imports: [InventoryModule],
  controllers: [PriceRulesController],
  providers: [PriceListsRepository, PriceRulesRepository, CurrencyRatesRepository, PutPriceClass, PutPriceList, GetPriceRule, CurrencyRates, PriceOrderLines],
  exports: [PriceOrderLines],
})
export class PricingModule {}
