import { Type } from 'class-transformer';
import { CollectBodyProblems } from '@erp/errors';
import { PG_INTEGER_MAX } from '@erp/database';
import { ArrayMaxSize, IsArray, IsIn, IsInt, Max, Min, ValidateNested } from 'class-validator';
import { MAX_LINES_PER_REQUEST, ORDER_STATUSES, type OrderStatus } from '@erp/sales-orders-queries';
import { HeaderFieldsDto, LineFieldsDto, Part, PatchAddressAndContactDto, PatchCustomerReferenceDto, PatchShippingDto } from './order-parts.dto';
import { IsV3DateTime, OptionalNotNull, OptionalNullIsAbsent, Required } from './validators';

export const LINE_OPERATIONS = ['insert', 'update', 'delete'] as const;
export type LineOperation = (typeof LINE_OPERATIONS)[number];

/**
 * One line change of a PATCH. `insert` carries the new line's fields (inventoryId and quantity
 * required; without unitPrice the price rules price it) and no lineId; `update` names a lineId and the fields to change; `delete`
 * names a lineId and nothing else. Those rules, and that each line is changed at most once, are
 * checked by the use case together with the rest of the body.
 */
export class PatchLineDto extends LineFieldsDto {
  @Required()
  @IsIn(LINE_OPERATIONS, { message: `operation must be one of ${LINE_OPERATIONS.join(', ')}` })
  operation: LineOperation;

  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(PG_INTEGER_MAX)
  lineId?: number;
}

/**
 * PATCH /api/v3/SalesOrders/{type}/{orderId}: header fields and line changes in one body. The
 * document's header properties read null as "unchanged"; `lines` is ours and refuses null.
 */
@CollectBodyProblems()
export class PatchSalesOrderDto extends HeaderFieldsDto {
  @Part(() => PatchCustomerReferenceDto) customer?: PatchCustomerReferenceDto;

  @OptionalNullIsAbsent() @IsV3DateTime() date?: string;

  @Part(() => PatchAddressAndContactDto) billing?: PatchAddressAndContactDto;
  @Part(() => PatchShippingDto) shipping?: PatchShippingDto;

  @OptionalNullIsAbsent()
  @IsIn(ORDER_STATUSES, { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
  status?: OrderStatus;

  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_LINES_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => PatchLineDto)
  lines?: PatchLineDto[];
}
