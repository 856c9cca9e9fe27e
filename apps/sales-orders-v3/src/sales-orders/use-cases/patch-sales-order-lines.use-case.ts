import { Injectable } from '@nestjs/common';
import { bodyProblemsOf } from '@erp/errors';
import type { IfMatchCondition } from '@erp/etag';
import type { PatchSalesOrderLinesDto } from '../dto/sales-order-lines.dto';
import type { OrderKey, WrittenOrder } from '../repository/sales-orders.repository';
import { patchLinesPatch, patchLinesRuleProblems } from '../rules/line-operation-rules';
import { PatchSalesOrder } from './patch-sales-order.use-case';

/** PATCH `.../{orderId}/lines`: a PATCH that updates the lines named (see PatchSalesOrder for the answers and the transaction). */
@Injectable()
export class PatchSalesOrderLines {
  constructor(private readonly patch: PatchSalesOrder) {}

  execute(key: OrderKey, dto: PatchSalesOrderLinesDto, ifMatch: IfMatchCondition): Promise<WrittenOrder> {
    return this.patch.apply(key, patchLinesPatch(dto), ifMatch, [...bodyProblemsOf(dto), ...patchLinesRuleProblems(dto)]);
  }
}
