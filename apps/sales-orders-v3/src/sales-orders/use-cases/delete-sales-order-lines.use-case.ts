import { Injectable } from '@nestjs/common';
import type { IfMatchCondition } from '@erp/etag';
import type { OrderKey, WrittenOrder } from '../repository/sales-orders.repository';
import { DELETE_LINE_ID_FIELD, deleteLinesPatch, parseDeleteLineIds } from '../rules/line-operation-rules';
import { PatchSalesOrder } from './patch-sales-order.use-case';

/**
 * DELETE `.../{orderId}/lines?ids=`: a PATCH that deletes the lines. The ids' problems go through
 * the PATCH with the others, so a missing order (404) and a stale If-Match (412) still answer first.
 */
@Injectable()
export class DeleteSalesOrderLines {
  constructor(private readonly patch: PatchSalesOrder) {}

  execute(key: OrderKey, rawIds: string | string[] | undefined, ifMatch: IfMatchCondition): Promise<WrittenOrder> {
    const { ids, problems } = parseDeleteLineIds(rawIds);
    return this.patch.apply(key, deleteLinesPatch(ids), ifMatch, problems, DELETE_LINE_ID_FIELD);
  }
}
