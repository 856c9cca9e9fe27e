import { Type } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CUSTOMER_STATUSES, type CustomerStatus } from '../customer.entity';

/**
 * Optional and clearable: absent means "leave as is", null means "clear it". class-validator's
 * IsOptional would let null through silently for required fields too, so those use ValidateIf.
 */
const presentOrNull = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined && o[field] !== null);

export class CountryDto {
  @IsString()
  @Matches(/^[A-Z]{2}$/, { message: 'country.id must be an ISO 3166-1 alpha-2 code such as NO or SE' })
  id: string;

  @presentOrNull('name')
  @IsString()
  @MaxLength(100)
  name?: string | null;
}

export class AddressDto {
  @presentOrNull('addressLine1') @IsString() @MaxLength(100) addressLine1?: string | null;
  @presentOrNull('addressLine2') @IsString() @MaxLength(100) addressLine2?: string | null;
  @presentOrNull('addressLine3') @IsString() @MaxLength(100) addressLine3?: string | null;
  @presentOrNull('postalCode') @IsString() @MaxLength(20) postalCode?: string | null;
  @presentOrNull('city') @IsString() @MaxLength(100) city?: string | null;

  @presentOrNull('country')
  @IsObject()
  @ValidateNested()
  @Type(() => CountryDto)
  country?: CountryDto | null;
}

export class ContactDto {
  @presentOrNull('name') @IsString() @MaxLength(100) name?: string | null;
  @presentOrNull('email') @IsString() @MaxLength(254) @IsEmail() email?: string | null;
  @presentOrNull('phone1') @IsString() @MaxLength(30) phone1?: string | null;
}

export class CreditTermsDto {
  @IsString() @IsNotEmpty() @MaxLength(10) id: string;
  @presentOrNull('description') @IsString() @MaxLength(100) description?: string | null;
}

/** Fields shared by create and update, all optional. `name` differs (required on create), so each DTO declares it. */
export class CustomerFieldsDto {
  @ValidateIf((o: CustomerFieldsDto) => o.status !== undefined)
  @IsIn(CUSTOMER_STATUSES, { message: `status must be one of ${CUSTOMER_STATUSES.join(', ')}` })
  status?: CustomerStatus;

  @presentOrNull('mainAddress')
  @IsObject()
  @ValidateNested()
  @Type(() => AddressDto)
  mainAddress?: AddressDto | null;

  @presentOrNull('mainContact')
  @IsObject()
  @ValidateNested()
  @Type(() => ContactDto)
  mainContact?: ContactDto | null;

  @presentOrNull('corporateId') @IsString() @MaxLength(50) corporateId?: string | null;
  @presentOrNull('vatRegistrationId') @IsString() @MaxLength(50) vatRegistrationId?: string | null;

  @presentOrNull('currencyId')
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: 'currencyId must be an ISO 4217 code such as NOK or EUR' })
  currencyId?: string | null;

  @presentOrNull('creditTerms')
  @IsObject()
  @ValidateNested()
  @Type(() => CreditTermsDto)
  creditTerms?: CreditTermsDto | null;
}

const CUSTOMER_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,29}$/;

export class CreateCustomerDto extends CustomerFieldsDto {
  /** Assigned from the company's sequence when omitted. */
  @ValidateIf((o: CreateCustomerDto) => o.number !== undefined)
  @IsString()
  @Matches(CUSTOMER_NUMBER, { message: 'number must be 1 to 30 letters, digits, ".", "_" or "-"' })
  number?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;
}

export class UpdateCustomerDto extends CustomerFieldsDto {
  /** Accepted only when equal to the number in the path: a customer's number never changes. */
  @ValidateIf((o: UpdateCustomerDto) => o.number !== undefined)
  @IsString()
  @Matches(CUSTOMER_NUMBER, { message: 'number must be 1 to 30 letters, digits, ".", "_" or "-"' })
  number?: string;

  @ValidateIf((o: UpdateCustomerDto) => o.name !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;
}
