import { Type } from 'class-transformer';
import { IsArray, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { SalesOrderEventLine, SalesOrderEventTotals } from './sales-order-event-money';

/** The statuses a v3 sales order can have (the API's `status.description` values). */
export const SALES_ORDER_STATUSES = ['Open', 'Hold', 'BackOrder', 'Completed', 'Cancelled'] as const;
export type SalesOrderStatus = (typeof SALES_ORDER_STATUSES)[number];

/**
 * What sales-order events carry: exactly the webhook delivery's `data` (API.md "Webhooks"), so
 * the webhook publisher forwards it unchanged. A receiver identifies the order by `type` and
 * `orderId`, compares `version` with the ETag it holds, and reads the rest from `link`.
 */
export class SalesOrderEventData {
  @JSONSchema({ description: 'The order type, e.g. `SO`.' })
  @Matches(/^[A-Z]{2}$/, { message: 'type must be a two-letter order type such as SO' })
  type: string;

  @JSONSchema({ description: 'The order number, per company and type, e.g. `000123`.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(15)
  orderId: string;

  @JSONSchema({ description: 'The customer number.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(30)
  customerId: string;

  @IsIn(SALES_ORDER_STATUSES)
  status: SalesOrderStatus;

  @JSONSchema({
    description:
      "The order's version after the change (the ETag value without quotes). It grows with every change of the order, deletion included, so a consumer keeps the event with the highest one.",
  })
  @Matches(/^[0-9]{1,19}$/, { message: 'version must be a decimal version' })
  version: string;

  @JSONSchema({ description: "The order's resource path, `/api/v3/SalesOrders/<type>/<orderId>`." })
  @Matches(/^\/api\/v3\/SalesOrders\/[^/]+\/[^/]+$/, { message: 'link must be /api/v3/SalesOrders/<type>/<orderId>' })
  link: string;

  // Optional (added within v3, tolerant readers ignore them): created and updated orders carry them, a deletion does not.
  @JSONSchema({ description: "The order's currency (created and updated orders)." })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'currencyId must be an ISO 4217 code' })
  currencyId?: string;

  @JSONSchema({ description: "The order's totals after the change (created and updated orders)." })
  @IsOptional()
  @ValidateNested()
  @Type(() => SalesOrderEventTotals)
  totals?: SalesOrderEventTotals;

  // The element class by name: the schema library sees only the design type (Array), not @Type.
  @JSONSchema({
    description: "The order's lines after the change, as priced, in sort order (created and updated orders).",
    type: 'array',
    items: { $ref: '#/definitions/SalesOrderEventLine' },
  })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => SalesOrderEventLine)
  lines?: SalesOrderEventLine[];
}

/** The resource path a sales-order event links to. */
export function salesOrderLink(type: string, orderId: string): string {
  return `/api/v3/SalesOrders/${encodeURIComponent(type)}/${encodeURIComponent(orderId)}`;
}

/** The envelope `subject` (aggregate id) of an order: unique per company, `<type>/<orderId>`. */
export function salesOrderSubject(type: string, orderId: string): string {
  return `${type}/${orderId}`;
}
