import type { Transport } from '../http/transport';
import type { CurrencyRates, CurrencyRatesPut, PriceClass, PriceClassPut, PriceList, PriceListPut } from '../types';

/**
 * The price rules and exchange rates of sales orders (extensions of the v3 document): customer price
 * classes, price lists, and the company's base currency with its rates. Each PUT replaces the whole
 * record and is not retried (a write); GETs answer 404 (ErpApiError) when there is none.
 */
export class PricesApi {
  constructor(private readonly transport: Transport) {}

  async putPriceClass(priceClassId: string, priceClass: PriceClassPut): Promise<PriceClass> {
    return (await this.transport.request<PriceClass>('PUT', `/api/v3/PriceClasses/${encodeURIComponent(priceClassId)}`, { body: priceClass })).data;
  }

  async getPriceClass(priceClassId: string): Promise<PriceClass> {
    return (await this.transport.request<PriceClass>('GET', `/api/v3/PriceClasses/${encodeURIComponent(priceClassId)}`)).data;
  }

  async putPriceList(priceListId: string, priceList: PriceListPut): Promise<PriceList> {
    return (await this.transport.request<PriceList>('PUT', `/api/v3/PriceLists/${encodeURIComponent(priceListId)}`, { body: priceList })).data;
  }

  async getPriceList(priceListId: string): Promise<PriceList> {
    return (await this.transport.request<PriceList>('GET', `/api/v3/PriceLists/${encodeURIComponent(priceListId)}`)).data;
  }

  async putCurrencyRates(rates: CurrencyRatesPut): Promise<CurrencyRates> {
    return (await this.transport.request<CurrencyRates>('PUT', '/api/v3/CurrencyRates', { body: rates })).data;
  }

  async getCurrencyRates(): Promise<CurrencyRates> {
    return (await this.transport.request<CurrencyRates>('GET', '/api/v3/CurrencyRates')).data;
  }
}
