import { Body, Controller, Get, Header, Param, Put, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CompanyId } from '@erp/auth';
import { ApiAuthenticated, ApiErrors, ApiJsonResponse } from '@erp/openapi';
import { answerPut, ApiPutWhole, JSON_TYPE } from '../http/put-answer';
import { PutCurrencyRatesDto } from './dto/currency-rates.dto';
import { PutPriceClassDto, PutPriceListDto } from './dto/price-rules.dto';
import { GetCurrencyRates } from './use-cases/get-currency-rates.use-case';
import { GetPriceClass } from './use-cases/get-price-class.use-case';
import { GetPriceList } from './use-cases/get-price-list.use-case';
import { PutCurrencyRates } from './use-cases/put-currency-rates.use-case';
import { PutPriceClass } from './use-cases/put-price-class.use-case';
import { PutPriceList } from './use-cases/put-price-list.use-case';

const EXTENSION = '(an extension of the v3 document, which has no way to manage prices)';

/**
 * The price rules' extension endpoints: customer price classes, price lists, and the base currency
 * with its exchange rates (the orders' base-currency amounts). Item base prices
 * are the `prices` of `PUT /api/v3/Inventory/{inventoryId}`. The rules: docs/api-conventions.md "Price rules".
 */
@Controller('api/v3')
@ApiTags('Prices')
@ApiAuthenticated('problem')
export class PriceRulesController {
  constructor(
    private readonly putClass: PutPriceClass,
    private readonly putList: PutPriceList,
    private readonly getClass: GetPriceClass,
    private readonly getList: GetPriceList,
    private readonly putRates: PutCurrencyRates,
    private readonly getRates: GetCurrencyRates,
  ) {}

  @Put('PriceClasses/:priceClassId')
  @ApiOperation({
    operationId: 'PriceClasses_Put_priceClassId',
    summary: `Creates or replaces a customer price class ${EXTENSION}`,
    description: 'The class and its customers; a customer is in at most one class (one another class holds is a 400). Price list entries with `priceClassId` price its customers.',
  })
  @ApiParam({ name: 'priceClassId', description: '1 to 10 letters, digits, _ or -', schema: { type: 'string' } })
  @ApiPutWhole('PriceClassPut', 'PriceClass')
  async PutPriceClass(
    @CompanyId() companyId: string,
    @Param('priceClassId') id: string,
    @Body() body: PutPriceClassDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return answerPut(reply, await this.putClass.execute(companyId, id, body), `/api/v3/PriceClasses/${encodeURIComponent(id)}`);
  }

  @Get('PriceClasses/:priceClassId')
  @ApiOperation({ operationId: 'PriceClasses_Get_priceClassId', summary: `Gets a customer price class ${EXTENSION}` })
  @ApiParam({ name: 'priceClassId', schema: { type: 'string' } })
  @ApiJsonResponse(200, 'The class', 'PriceClass')
  @ApiErrors('problem', 404)
  @Header('content-type', JSON_TYPE)
  async GetPriceClass(@CompanyId() companyId: string, @Param('priceClassId') id: string): Promise<string> {
    return this.getClass.execute(companyId, id);
  }

  @Put('PriceLists/:priceListId')
  @ApiOperation({
    operationId: 'PriceLists_Put_priceListId',
    summary: `Creates or replaces a price list ${EXTENSION}`,
    description:
      'The list (one currency) and all its entries: each prices an item for one customer, one price class or everyone, from `minQuantity` (quantity breaks), ' +
      'optionally with a line `discountPercent`, between optional `effectiveFrom`/`effectiveTo` (inclusive). Order lines written afterwards use it; written ones keep their prices.',
  })
  @ApiParam({ name: 'priceListId', description: '1 to 30 letters, digits, _ . or -', schema: { type: 'string' } })
  @ApiPutWhole('PriceListPut', 'PriceList')
  async PutPriceList(
    @CompanyId() companyId: string,
    @Param('priceListId') id: string,
    @Body() body: PutPriceListDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    return answerPut(reply, await this.putList.execute(companyId, id, body), `/api/v3/PriceLists/${encodeURIComponent(id)}`);
  }

  @Put('CurrencyRates')
  @ApiOperation({
    operationId: 'CurrencyRates_Put',
    summary: `Sets the company's base currency and exchange rates ${EXTENSION}`,
    description:
      'All of them, replaced whole: `rate` is what 1 unit of `currencyId` is in the base currency from `effectiveDate` on (until its next rate). ' +
      'An order in another currency takes the rate in force on its date when its totals are computed; without one the write is a 400.',
  })
  @ApiPutWhole('CurrencyRatesPut', 'CurrencyRates')
  async PutCurrencyRates(@CompanyId() companyId: string, @Body() body: PutCurrencyRatesDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    return answerPut(reply, await this.putRates.execute(companyId, body), '/api/v3/CurrencyRates');
  }

  @Get('CurrencyRates')
  @ApiOperation({ operationId: 'CurrencyRates_Get', summary: `Gets the company's base currency and exchange rates ${EXTENSION}` })
  @ApiJsonResponse(200, 'The base currency and rates', 'CurrencyRates')
  @ApiErrors('problem', 404)
  @Header('content-type', JSON_TYPE)
  async GetCurrencyRates(@CompanyId() companyId: string): Promise<string> {
    return this.getRates.execute(companyId);
  }

  @Get('PriceLists/:priceListId')
  @ApiOperation({ operationId: 'PriceLists_Get_priceListId', summary: `Gets a price list ${EXTENSION}` })
  @ApiParam({ name: 'priceListId', schema: { type: 'string' } })
  @ApiJsonResponse(200, 'The list', 'PriceList')
  @ApiErrors('problem', 404)
  @Header('content-type', JSON_TYPE)
  async GetPriceList(@CompanyId() companyId: string, @Param('priceListId') id: string): Promise<string> {
    return this.getList.execute(companyId, id);
  }
}
