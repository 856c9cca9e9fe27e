import { Transform } from 'class-transformer';
import { registerDecorator, ValidateIf } from 'class-validator';

/**
 * Properties of the published v3 document that this service keeps no value for. Clients generated
 * from that document (NSwag's default) send every property of a request, `null` when the caller did
 * not set it, so such a property is accepted as null or absent ("not set"). A value is a 400 naming
 * the field: dropping it silently would let a client believe it was stored.
 */

type Bag = Record<string | symbol, unknown>;
const NOT_SUPPORTED = Symbol('erp:not-supported');

/** `null` is read as absent ("not set" on create, "unchanged" on PATCH), before validation. */
export function NullMeansAbsent(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (value === null ? undefined : value));
}

/** A property of the published document that this service does not keep: only null or absent. */
export function NotSupported(message?: string): PropertyDecorator {
  return (target, key) => {
    const name = String(key);
    NullMeansAbsent()(target, key);
    ValidateIf((o: Bag) => o[key] !== undefined)(target, key);
    registerDecorator({
      name: 'isNotSupported',
      target: target.constructor,
      propertyName: name,
      validator: {
        validate: () => false,
        defaultMessage: () => message ?? `${name} is not supported by this service; send null or leave it out`,
      },
    });
    const own = (Reflect.getOwnMetadata(NOT_SUPPORTED, target.constructor) as string[] | undefined) ?? [];
    Reflect.defineMetadata(NOT_SUPPORTED, [...own, name], target.constructor);
  };
}

/**
 * Declares a DTO's not-supported properties from one typed list (the list is checked against the
 * published document by `published-fields.spec.ts`).
 */
export function declareNotSupported(dto: abstract new () => object, names: readonly string[]): void {
  for (const name of names) NotSupported()(dto.prototype, name);
}

/** `null` means absent for these properties of this DTO only (a parent DTO keeps its own rule). */
export function declareNullMeansAbsent<T extends object>(dto: abstract new () => T, names: ReadonlyArray<keyof T & string>): void {
  for (const name of names) NullMeansAbsent()(dto.prototype, name);
}

/** The not-supported properties of a DTO, its parents' included. */
export function notSupportedPropertiesOf(dto: abstract new () => object): string[] {
  const names: string[] = [];
  for (let type: unknown = dto; typeof type === 'function' && type !== Function.prototype; type = Object.getPrototypeOf(type)) {
    names.push(...((Reflect.getOwnMetadata(NOT_SUPPORTED, type) as string[] | undefined) ?? []));
  }
  return [...new Set(names)].sort();
}
