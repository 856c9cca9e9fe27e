import type { ArgumentMetadata } from '@nestjs/common';
import { ValidationFailedError } from './api-error';
import { DETAIL_CODES } from './fault-codes';
import { JsonObjectBodyPipe } from './validation';
import { firstWideObject, MAX_OBJECT_PROPERTIES } from './wide-object';

const objectOf = (keys: number) => Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]));
const body = { type: 'body' } as ArgumentMetadata;

describe('objects wider than the API documents', () => {
  it('finds the first object with more than MAX_OBJECT_PROPERTIES properties, at any depth, by its field path', () => {
    expect(firstWideObject(objectOf(MAX_OBJECT_PROPERTIES))).toBeUndefined();
    expect(firstWideObject(objectOf(MAX_OBJECT_PROPERTIES + 1))).toEqual({ field: 'body', properties: MAX_OBJECT_PROPERTIES + 1 });
    expect(firstWideObject({ note: 'x', orderLines: [{ quantity: 1 }, objectOf(5_000)] })).toEqual({ field: 'orderLines[1]', properties: 5_000 });
    expect(firstWideObject({ address: { extra: objectOf(2_000) } })).toEqual({ field: 'address.extra', properties: 2_000 });
    // Long arrays are a list of lines, not a wide object.
    expect(firstWideObject({ orderLines: Array.from({ length: 20_000 }, (_, i) => ({ lineNumber: i })) })).toBeUndefined();
  });

  it('answers such a body 400 in the documented shape before validation, and passes every other object body on unchanged', () => {
    const pipe = new JsonObjectBodyPipe();
    let thrown: unknown;
    try {
      pipe.transform(objectOf(50_000), body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationFailedError);
    expect((thrown as ValidationFailedError).fieldProblems).toEqual([
      { field: 'body', message: `has 50000 properties; an object may have at most ${MAX_OBJECT_PROPERTIES}`, code: DETAIL_CODES.tooLong },
    ]);
    const fine = { since: '2026-01-01T00:00:00Z', nested: objectOf(10) };
    expect(pipe.transform(fine, body)).toBe(fine);
  });
});
