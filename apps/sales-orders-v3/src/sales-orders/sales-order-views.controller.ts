import { refuseUnknownParameters } from '@erp/errors';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CompanyId } from '@erp/auth';
import { ApiAuthenticated } from '@erp/openapi';
import type { OrderView } from './repository/sales-order-views.repository';
import { orderKey } from './sales-order-paths';
import { ApiOrderView, type QueryParams } from './sales-orders.api';
import { GetSalesOrderView } from './use-cases/get-sales-order-view.use-case';

/** The read views of an order (handler names are the document's operationIds). */
@Controller('api/v3/SalesOrders')
@ApiTags('Sales orders')
@ApiAuthenticated('problem')
// operationIds stay `SalesOrders_<handler>`, as when these handlers were SalesOrdersController's:
// generated clients call them by those names.
export class SalesOrderViewsController {
  constructor(private readonly getOrderView: GetSalesOrderView) {}

  // The read views, as the v3 document has them (a bare array, or for ROT/RUT one object); the
  // values are computed from the order's view parts and lines when read. No query parameters.

  @Get(':type/:orderId/commissions')
  @ApiOperation({ operationId: 'SalesOrders_getCommissions', summary: 'Get the commission of a sales order', description: 'The salesperson\'s commission on the commissionable lines; `[]` without a salesperson.' })
  @ApiOrderView('SalesOrderCommission', true)
  getCommissions(@CompanyId() companyId: string, @Param('type') type: string, @Param('orderId') orderId: string, @Query() query: QueryParams): Promise<string> {
    return this.view(companyId, type, orderId, query, 'commissions');
  }

  @Get(':type/:orderId/discounts')
  @ApiOperation({ operationId: 'SalesOrders_getDiscounts', summary: 'Get the document discounts of a sales order', description: 'Each discount with its base and the amount computed on the order\'s total after line discounts.' })
  @ApiOrderView('SalesOrderDiscount', true)
  getDiscounts(@CompanyId() companyId: string, @Param('type') type: string, @Param('orderId') orderId: string, @Query() query: QueryParams): Promise<string> {
    return this.view(companyId, type, orderId, query, 'discounts');
  }

  @Get(':type/:orderId/rotrut')
  @ApiOperation({ operationId: 'SalesOrders_getRotRut', summary: 'Get the ROT/RUT deduction of a sales order', description: 'One object; `type` null and no distribution when the order has none.' })
  @ApiOrderView('SalesOrderRotRut', false)
  getRotRut(@CompanyId() companyId: string, @Param('type') type: string, @Param('orderId') orderId: string, @Query() query: QueryParams): Promise<string> {
    return this.view(companyId, type, orderId, query, 'rotrut');
  }

  @Get(':type/:orderId/shipment')
  @ApiOperation({ operationId: 'SalesOrders_getShipment', summary: 'Get the shipments of a sales order', description: 'In date order.' })
  @ApiOrderView('SalesOrderShipment', true)
  getShipment(@CompanyId() companyId: string, @Param('type') type: string, @Param('orderId') orderId: string, @Query() query: QueryParams): Promise<string> {
    return this.view(companyId, type, orderId, query, 'shipment');
  }

  @Get(':type/:orderId/tax')
  @ApiOperation({ operationId: 'SalesOrders_getTax', summary: 'Get the taxes of a sales order', description: 'One entry per tax: its taxable amount (the lines of its tax category less their share of document discounts) and tax.' })
  @ApiOrderView('SalesOrderTax', true)
  getTax(@CompanyId() companyId: string, @Param('type') type: string, @Param('orderId') orderId: string, @Query() query: QueryParams): Promise<string> {
    return this.view(companyId, type, orderId, query, 'tax');
  }

  private view(companyId: string, type: string, orderId: string, query: QueryParams, view: OrderView): Promise<string> {
    const key = orderKey(companyId, type, orderId);
    refuseUnknownParameters(query, new Set());
    return this.getOrderView.execute(key, view);
  }
}
