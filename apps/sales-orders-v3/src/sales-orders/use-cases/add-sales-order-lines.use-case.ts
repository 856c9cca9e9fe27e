import { Injectable } from '@nestjs/common';
import { bodyProblemsOf } from '@erp/errors';
import type { IfMatchCondition } from '@erp/etag';
import type { AddSalesOrderLinesDto } from '../dto/sales-order-lines.dto';
import type { OrderKey, WrittenOrder } from '../repository/sales-orders.repository';
import { addLinesPatch, addLinesRuleProblems } from '../rules/line-operation-rules';
import { PatchSalesOrder } from './patch-sales-order.use-case';

/** POST `.../{orderId}/lines`: a PATCH that inserts the lines (see PatchSalesOrder for the answers and the transaction). */
@Injectable()
export class AddSalesOrderLines {
  constructor(private readonly patch: PatchSalesOrder) {}

  execute(key: OrderKey, dto: AddSalesOrderLinesDto, ifMatch: IfMatchCondition): Promise<WrittenOrder> {
    return this.patch.apply(key, addLinesPatch(dto), ifMatch, [...bodyProblemsOf(dto), ...addLinesRuleProblems(dto)]);
  }
}
