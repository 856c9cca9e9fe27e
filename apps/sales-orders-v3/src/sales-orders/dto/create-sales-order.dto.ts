import { Type } from 'class-transformer';
import { CollectBodyProblems } from '@erp/errors';
import { ArrayMaxSize, IsArray, IsIn, IsObject, ValidateNested } from 'class-validator';
import { CREATE_STATUSES, MAX_LINES_PER_REQUEST, type OrderStatus } from '@erp/sales-orders-queries';
import { AddressAndContactDto, CreateCustomerReferenceDto, HeaderFieldsDto, Part, ShippingDto } from './order-parts.dto';
import { declareNotSupported } from './published-fields';
import { AddLineDto } from './sales-order-lines.dto';
import { IsV3DateTime, OptionalNullIsAbsent, OptionalNullable, Required, Text } from './validators';

/** A line of a new order: the same shape as a line added later (the document's NewSalesOrderLineDto). */
export class NewOrderLineDto extends AddLineDto {}

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

  @OptionalNullIsAbsent()
  @IsArray()
  @ArrayMaxSize(MAX_LINES_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => NewOrderLineDto)
  orderLines?: NewOrderLineDto[];

  @Part(() => AddressAndContactDto) billing?: AddressAndContactDto;
  @Part(() => ShippingDto) shipping?: ShippingDto;
}
/** The order id comes from the company's sequence: the document's `orderId` is accepted only as null. */
declareNotSupported(CreateSalesOrderDto, ['orderId']);
