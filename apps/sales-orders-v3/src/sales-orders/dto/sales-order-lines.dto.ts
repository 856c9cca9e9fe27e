import { Type } from 'class-transformer';
import { CollectBodyProblems } from '@erp/errors';
import { PG_INTEGER_MAX } from '@erp/database';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, Max, Min, ValidateNested } from 'class-validator';
import { MAX_LINES_PER_REQUEST } from '@erp/sales-orders-queries';
import { LINE_NOT_SUPPORTED, LineFieldsDto, LineValuesDto } from './order-parts.dto';
import { declareNotSupported, declareNullMeansAbsent, NotSupported } from './published-fields';
import { Required } from './validators';

/**
 * The bodies of the line operations on `.../{orderId}/lines` (the v3 document's
 * AddSalesOrderLinesCommand and PatchSalesOrderLinesCommand). Their line `operation` is the
 * document's: the line's inventory direction (`Issue` or `Receipt`), not insert/update/delete.
 * This service keeps no direction on a line, so only null (or absent) is accepted: a value would
 * otherwise be dropped without a word, and a client that means insert/update/delete learns at once
 * that the endpoint decides that (POST adds, PATCH updates, DELETE removes).
 */
const OPERATION_MESSAGE =
  'operation (Issue or Receipt) is not kept by this service and must be null or absent; POST .../lines adds lines, PATCH .../lines updates them, DELETE .../lines?ids= removes them';

function LineOperationNotKept(): PropertyDecorator {
  return NotSupported(OPERATION_MESSAGE);
}

function LinesArray(entry: () => new () => object): PropertyDecorator {
  return (target, key) => {
    Required()(target, key);
    IsArray()(target, key);
    ArrayMinSize(1, { message: 'lines must hold at least one line' })(target, key);
    ArrayMaxSize(MAX_LINES_PER_REQUEST)(target, key);
    ValidateNested({ each: true })(target, key);
    Type(entry)(target, key);
  };
}

/**
 * A new line, the document's NewSalesOrderLineDto (POST .../lines and a new order's orderLines):
 * inventoryId and quantity required, checked with the body by the use case. The document's nullable
 * unitPrice and discountPercent read null as not set (the price rules then set them); quantity is not
 * nullable there.
 */
export class AddLineDto extends LineFieldsDto {
  @LineOperationNotKept() operation?: null;
}
declareNotSupported(AddLineDto, LINE_NOT_SUPPORTED);
declareNullMeansAbsent(AddLineDto, ['unitPrice', 'discountPercent']);

/** POST .../{orderId}/lines: `{ lines: [new line, ...] }`. */
@CollectBodyProblems()
export class AddSalesOrderLinesDto {
  @LinesArray(() => AddLineDto)
  lines: AddLineDto[];
}

/** One line to change: `lineId` names it, the other fields sent change (null clears a clearable one). */
export class PatchLineEntryDto extends LineValuesDto {
  @Required()
  @IsInt()
  @Min(1)
  @Max(PG_INTEGER_MAX)
  lineId: number;

  @LineOperationNotKept() operation?: null;
}
/** The document's PatchSalesOrderLineDto: a null quantity, price, discount or sort order leaves it unchanged. */
declareNotSupported(PatchLineEntryDto, LINE_NOT_SUPPORTED);
declareNullMeansAbsent(PatchLineEntryDto, ['quantity', 'unitPrice', 'discountPercent', 'sortOrder']);

/** PATCH .../{orderId}/lines: `{ lines: [{ lineId, ...fields }, ...] }`, every entry an update. */
@CollectBodyProblems()
export class PatchSalesOrderLinesDto {
  @LinesArray(() => PatchLineEntryDto)
  lines: PatchLineEntryDto[];
}
