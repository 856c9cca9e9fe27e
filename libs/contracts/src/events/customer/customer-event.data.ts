import { IsIn, IsISO8601, IsNotEmpty, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** The statuses a v1 customer can have (the API's wire values). */
export const CUSTOMER_STATUSES = ['Active', 'OnHold', 'CreditHold', 'Inactive', 'OneTime'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

/**
 * What customer events carry: the customer as consumers need it without calling back (the sales
 * order service's customer snapshot validates orders against `status` and shows `name`; a webhook
 * receiver gets `link` to read the rest). Values are exactly what `GET /v1/customer/{number}`
 * shows at `version`, so a receiver can compare them with a read.
 */
export class CustomerEventData {
  @JSONSchema({ description: "The customer number, the customer's id in the API (never changes)." })
  @IsString()
  @IsNotEmpty()
  @MaxLength(30)
  number: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @IsIn(CUSTOMER_STATUSES)
  status: CustomerStatus;

  @JSONSchema({ description: 'ISO 4217 code, or null when the customer has none.' })
  @ValidateIf((data: CustomerEventData) => data.currencyId !== null)
  @Matches(/^[A-Z]{3}$/, { message: 'currencyId must be an ISO 4217 code or null' })
  currencyId: string | null;

  @JSONSchema({
    description:
      "The row version after the change (the API's `timeStamp` and ETag value). Grows with every change of this customer, so a consumer keeps the event with the highest version if it sees two out of order.",
  })
  @Matches(/^[0-9]{1,19}$/, { message: 'version must be a decimal row version' })
  version: string;

  @JSONSchema({ description: 'As the API shows it: UTC to the millisecond, without zone, e.g. `2025-01-31T09:15:00.123`.' })
  @IsISO8601({ strict: true, strictSeparator: true })
  lastModifiedDateTime: string;

  @JSONSchema({ description: "The customer's resource path, `/v1/customer/<number>`." })
  @Matches(/^\/v1\/customer\/[^/]+$/, { message: 'link must be /v1/customer/<number>' })
  link: string;
}

/** The resource path a customer event links to. */
export function customerLink(number: string): string {
  return `/v1/customer/${encodeURIComponent(number)}`;
}
