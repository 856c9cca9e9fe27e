import { getMetadataStorage } from 'class-validator';

/**
 * The mirrors of one record's shape held to each other (docs/adding-a-field.md): the record the
 * database builds, the OpenAPI schemas that document it, the fields the write DTO validates. Each
 * side is named by the file that holds it, so a field added to one mirror and not another fails
 * with both files and the field, not with a diff to decode.
 */
export interface ShapeSide {
  /** What and where, e.g. `SUPPLIER_INVOICE_JSON (repository/supplier-invoices.queries.ts)`. */
  name: string;
  fields: string[];
}

/** `<field>: in <a>, missing from <b>` for every field one side has and the other lacks. */
export function shapeDisagreements(a: ShapeSide, b: ShapeSide): string[] {
  return [
    ...a.fields.filter((f) => !b.fields.includes(f)).map((f) => `${f}: in ${a.name}, missing from ${b.name}`),
    ...b.fields.filter((f) => !a.fields.includes(f)).map((f) => `${f}: in ${b.name}, missing from ${a.name}`),
  ];
}

/** The properties an OpenAPI object schema of a `Schemas` map declares. */
export function schemaFields(schemas: Record<string, unknown>, name: string): string[] {
  const schema = schemas[name] as { properties?: Record<string, unknown> } | undefined;
  if (!schema?.properties) throw new Error(`no object schema ${name} with properties`);
  return Object.keys(schema.properties).sort();
}

/** The properties a class-validator class (a write DTO, its parents included) has rules for. */
export function validatedFields(dto: new () => object): string[] {
  return [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName))].sort();
}

/** The keys of a JSON record as the API answered it (`metadata` of a list item left out). */
export function recordFields(record: object): string[] {
  return Object.keys(record)
    .filter((key) => key !== 'metadata')
    .sort();
}
