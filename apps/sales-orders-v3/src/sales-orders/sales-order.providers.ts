import type { Provider } from '@nestjs/common';
import { SalesOrderLinesRepository } from './repository/sales-order-lines.repository';
import { SalesOrderViewsRepository } from './repository/sales-order-views.repository';
import { SalesOrdersRepository } from './repository/sales-orders.repository';
import { AddSalesOrderLines } from './use-cases/add-sales-order-lines.use-case';
import { CreateSalesOrder } from './use-cases/create-sales-order.use-case';
import { DeleteSalesOrder } from './use-cases/delete-sales-order.use-case';
import { DeleteSalesOrderLines } from './use-cases/delete-sales-order-lines.use-case';
import { GetSalesOrder } from './use-cases/get-sales-order.use-case';
import { GetSalesOrderLine } from './use-cases/get-sales-order-line.use-case';
import { GetSalesOrderView } from './use-cases/get-sales-order-view.use-case';
import { ListSalesOrderLines } from './use-cases/list-sales-order-lines.use-case';
import { ListSalesOrders } from './use-cases/list-sales-orders.use-case';
import { OrderChange } from './use-cases/order-change';
import { PatchSalesOrder } from './use-cases/patch-sales-order.use-case';
import { PatchSalesOrderLines } from './use-cases/patch-sales-order-lines.use-case';

/** The sales-order use cases (one per operation) and the repositories they write through. */
export const SALES_ORDER_PROVIDERS: Provider[] = [
  SalesOrdersRepository,
  SalesOrderLinesRepository,
  SalesOrderViewsRepository,
  OrderChange,
  ListSalesOrders,
  GetSalesOrder,
  CreateSalesOrder,
  PatchSalesOrder,
  DeleteSalesOrder,
  ListSalesOrderLines,
  GetSalesOrderLine,
  AddSalesOrderLines,
  PatchSalesOrderLines,
  DeleteSalesOrderLines,
  GetSalesOrderView,
];
