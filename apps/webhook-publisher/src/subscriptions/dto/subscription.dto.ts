import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsString,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { PUBLISHER_NAMES, type PublisherName } from '../../publishers/publishers';

/** Present means "set it": null is refused for fields that cannot be cleared. */
const present = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined);
const presentOrNull = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined && o[field] !== null);

export class CreateSubscriptionDto {
  @IsIn(PUBLISHER_NAMES, { message: `publisher must be one of ${PUBLISHER_NAMES.join(', ')}` })
  publisher: PublisherName;

  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(20)
  @ArrayUnique()
  @IsString({ each: true })
  eventTypes: string[];

  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  url: string;

  @presentOrNull('description')
  @IsString()
  @MaxLength(500)
  description?: string | null;
}

export class UpdateSubscriptionDto {
  @present('url')
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  url?: string;

  @present('eventTypes')
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(20)
  @ArrayUnique()
  @IsString({ each: true })
  eventTypes?: string[];

  @present('enabled')
  @IsBoolean()
  enabled?: boolean;

  @presentOrNull('description')
  @IsString()
  @MaxLength(500)
  description?: string | null;
}

export class ReplayDto {
  /** Start of the window (inclusive), ISO 8601 with a zone or UTC. */
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 timestamp' })
  since: string;

  /** End of the window (exclusive); default now. */
  @present('until')
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 timestamp' })
  until?: string;
}
