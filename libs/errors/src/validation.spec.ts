import 'reflect-metadata';
import type { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsDefined,
  IsEmail,
  IsInt,
  IsOptional,
  IsPositive,
  IsString,
  MaxLength,
  ValidateNested,
  ValidationError,
} from 'class-validator';
import { ValidationFailedError } from './api-error';
import { DETAIL_CODES } from './fault-codes';
import { bodyProblemsOf, CollectBodyProblems, createValidationPipe, flattenValidationErrors } from './validation';

class LineDto {
  @IsInt()
  @IsPositive()
  quantity!: number;

  @IsOptional()
  @IsString()
  @MaxLength(5)
  description?: string;
}

class ContactDto {
  @IsEmail()
  email!: string;
}

class OrderDto {
  @IsDefined()
  @IsString()
  name!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => ContactDto)
  contact?: ContactDto;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => LineDto)
  lines!: LineDto[];
}

const bodyOf = (metatype: new () => object): ArgumentMetadata => ({ type: 'body', metatype, data: '' });

async function problemsFor(value: unknown) {
  try {
    await createValidationPipe().transform(value, bodyOf(OrderDto));
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedError);
    return (error as ValidationFailedError).fieldProblems;
  }
  throw new Error('expected the pipe to refuse the body');
}

describe('flattenValidationErrors', () => {
  it('gives one problem per failed constraint with a dotted path', () => {
    const child = Object.assign(new ValidationError(), {
      property: 'city',
      constraints: { isString: 'city must be a string', maxLength: 'city is too long' },
    });
    const parent = Object.assign(new ValidationError(), { property: 'mainAddress', children: [child] });
    expect(flattenValidationErrors([parent])).toEqual([
      { field: 'mainAddress.city', message: 'city must be a string', code: DETAIL_CODES.invalidValue },
      { field: 'mainAddress.city', message: 'city is too long', code: DETAIL_CODES.tooLong },
    ]);
  });

  it('writes array elements as indexes', () => {
    const quantity = Object.assign(new ValidationError(), {
      property: 'quantity',
      constraints: { min: 'too small' },
    });
    const element = Object.assign(new ValidationError(), { property: '3', children: [quantity] });
    const lines = Object.assign(new ValidationError(), { property: 'lines', children: [element] });
    expect(flattenValidationErrors([lines])).toEqual([
      { field: 'lines[3].quantity', message: 'too small', code: DETAIL_CODES.outOfRange },
    ]);
  });

  it.each([
    ['isDefined', DETAIL_CODES.required],
    ['isNotEmpty', DETAIL_CODES.required],
    ['whitelistValidation', DETAIL_CODES.unknownProperty],
    ['maxLength', DETAIL_CODES.tooLong],
    ['arrayMaxSize', DETAIL_CODES.tooLong],
    ['max', DETAIL_CODES.outOfRange],
    ['min', DETAIL_CODES.outOfRange],
    ['isPositive', DETAIL_CODES.outOfRange],
    ['isEmail', DETAIL_CODES.invalidFormat],
    ['isDateString', DETAIL_CODES.invalidFormat],
    ['isISO8601', DETAIL_CODES.invalidFormat],
    ['matches', DETAIL_CODES.invalidFormat],
    ['isInt', DETAIL_CODES.invalidValue],
    ['somethingCustom', DETAIL_CODES.invalidValue],
  ])('maps the %s constraint to detail code %s', (constraint, code) => {
    const error = Object.assign(new ValidationError(), {
      property: 'x',
      constraints: { [constraint]: 'bad' },
    });
    expect(flattenValidationErrors([error])[0].code).toBe(code);
  });

  it('returns nothing for an empty error list', () => {
    expect(flattenValidationErrors([])).toEqual([]);
  });
});

describe('createValidationPipe', () => {
  it('reports every bad field of a nested body at once, with array indexes', async () => {
    const problems = await problemsFor({
      contact: { email: 'not-an-email' },
      lines: [
        { quantity: 1 },
        { quantity: 2 },
        { quantity: 3 },
        { quantity: -1, description: 'far too long' },
      ],
    });
    const byField = problems.map((p) => [p.field, p.code]);
    expect(byField).toEqual(
      expect.arrayContaining([
        ['name', DETAIL_CODES.required],
        ['contact.email', DETAIL_CODES.invalidFormat],
        ['lines[3].quantity', DETAIL_CODES.outOfRange],
        ['lines[3].description', DETAIL_CODES.tooLong],
      ]),
    );
    expect(problems.some((p) => p.field.startsWith('lines[0]'))).toBe(false);
  });

  it('refuses unknown properties instead of dropping them', async () => {
    const problems = await problemsFor({ name: 'Acme', lines: [], surprise: true });
    expect(problems).toEqual([
      expect.objectContaining({ field: 'surprise', code: DETAIL_CODES.unknownProperty }),
    ]);
  });

  it('does not echo submitted values in the problems', async () => {
    const problems = await problemsFor({ name: 'Acme', lines: [], contact: { email: 'secret-value' } });
    expect(JSON.stringify(problems)).not.toContain('secret-value');
  });

  it('returns an instance of the DTO for a valid body', async () => {
    const value = await createValidationPipe().transform(
      { name: 'Acme', lines: [{ quantity: 2 }] },
      bodyOf(OrderDto),
    );
    expect(value).toBeInstanceOf(OrderDto);
    expect((value as OrderDto).lines[0]).toBeInstanceOf(LineDto);
  });
});

@CollectBodyProblems()
class CollectedOrderDto extends OrderDto {}

describe('a @CollectBodyProblems() body', () => {
  it('reaches the handler with its problems instead of a 400, one per field', async () => {
    const dto = await createValidationPipe().transform(
      { lines: [{ quantity: -1 }], surprise: true },
      bodyOf(CollectedOrderDto),
    );
    expect(dto).toBeInstanceOf(CollectedOrderDto);
    expect(bodyProblemsOf(dto as object).map((p) => [p.field, p.code])).toEqual([
      ['surprise', DETAIL_CODES.unknownProperty],
      ['name', DETAIL_CODES.required],
      ['lines[0].quantity', DETAIL_CODES.outOfRange],
    ]);
    // The problems are not part of the body: nothing serializes or iterates them.
    expect(Object.keys(dto as object)).not.toContain('problems');
    expect(JSON.stringify(dto)).not.toContain('quantity must');
  });

  it('has no problems when the body is valid', async () => {
    const dto = await createValidationPipe().transform({ name: 'Acme', lines: [{ quantity: 2 }] }, bodyOf(CollectedOrderDto));
    expect(bodyProblemsOf(dto as object)).toEqual([]);
    expect((dto as OrderDto).lines[0]).toBeInstanceOf(LineDto);
  });

  it('does not change how other bodies are refused', async () => {
    await expect(createValidationPipe().transform({ lines: [] }, bodyOf(OrderDto))).rejects.toBeInstanceOf(ValidationFailedError);
  });
});
