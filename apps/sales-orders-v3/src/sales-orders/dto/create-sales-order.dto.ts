import { Type } from 'class-transformer';
import { CollectBodyProblems } from '@erp/errors';
import { ArrayMaxSize, IsArray, IsIn, IsObject, ValidateNested } from 'class-validator';
import { CREATE_STATUSES, MAX_LINES_PER_REQUEST, type OrderStatus } from '@erp/sales-orders-queries';
import { CreateCustomerReferenceDto, HeaderFieldsDto, LineFieldsDto } from './order-parts.dto';
import { IsV3DateTime, OptionalNotNull, OptionalNullable, Required, Text } from './validators';

/** A line of a new order: inventoryId, quantity and unitPrice are required (checked with the body). */
export class NewOrderLineDto extends LineFieldsDto {}

/** POST /api/v3/SalesOrders. `type` is checked against the known order types by the use case. */
@CollectBodyProblems()
export class CreateSalesOrderDto extends HeaderFieldsDto {
  @Required()
  @Text(2, { nonEmpty: true })
  type: string;

  @Required()
  @IsObject()
  @ValidateNested()
  @Type(() => CreateCustomerReferenceDto)
  customer: CreateCustomerReferenceDto;

  /** The order date; today (UTC midnight) when omitted. */
  @OptionalNullable() @IsV3DateTime() date?: string | null;

  @OptionalNullable()
  @IsIn(CREATE_STATUSES, { message: `status of a new order must be one of ${CREATE_STATUSES.join(', ')}` })
  status?: OrderStatus | null;

  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_LINES_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => NewOrderLineDto)
  orderLines?: NewOrderLineDto[];
}
