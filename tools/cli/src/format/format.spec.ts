import { parseCsv } from '../test-support/csv-parse';
import { csvField, csvRecord, csvRow } from './csv';
import { formatRecordTable, formatTable, tableCell } from './table';
import { cellText, flattenRecord, valueAtPath, withoutListMetadata } from './values';

describe('CSV (RFC 4180)', () => {
  it('leaves plain fields bare', () => {
    expect(csvField('Acme AB')).toBe('Acme AB');
    expect(csvField(42)).toBe('42');
    expect(csvField(12.5)).toBe('12.5');
    expect(csvField(true)).toBe('true');
  });

  it('quotes fields with a comma, a quote, CR or LF and doubles the quotes', () => {
    expect(csvField('Smith, John')).toBe('"Smith, John"');
    expect(csvField('the "best" shop')).toBe('"the ""best"" shop"');
    expect(csvField('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvField('a\rb')).toBe('"a\rb"');
    expect(csvField('"')).toBe('""""');
  });

  it('keeps leading and trailing spaces (they are data)', () => {
    expect(csvField('  padded ')).toBe('  padded ');
  });

  it('writes null and absent as empty, objects and arrays as quoted JSON', () => {
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField([{ id: 1, name: 'x' }])).toBe('"[{""id"":1,""name"":""x""}]"');
  });

  it('ends rows with CRLF and reads columns as dot paths', () => {
    expect(csvRow(['a', 'b,c', null])).toBe('a,"b,c",\r\n');
    const record = { number: '10001', name: 'Nordic "Oak", Ltd', mainAddress: { city: 'Oslo', country: { id: 'NO' } } };
    expect(csvRecord(record, ['number', 'name', 'mainAddress.country.id', 'missing'])).toBe('10001,"Nordic ""Oak"", Ltd",NO,\r\n');
  });

  it('round-trips through a strict parser: every field comes back exactly', () => {
    const values = ['plain', 'comma,inside', 'quote"inside', 'new\nline', 'crlf\r\nboth', '', ' spaced ', 'ünïcødé, ok'];
    const line = csvRow(values);
    expect(parseCsv(line)).toEqual([values]);
  });
});

describe('record values', () => {
  it('flattens nested objects to dot paths in record order and keeps arrays whole', () => {
    const flat = flattenRecord({ a: 1, b: { c: 'x', d: { e: null } }, lines: [{ q: 1 }] });
    expect([...flat.entries()]).toEqual([
      ['a', 1],
      ['b.c', 'x'],
      ['b.d.e', null],
      ['lines', [{ q: 1 }]],
    ]);
  });

  it('reads dot paths and answers undefined for missing steps', () => {
    const record = { a: { b: { c: 3 } }, list: [1] };
    expect(valueAtPath(record, 'a.b.c')).toBe(3);
    expect(valueAtPath(record, 'a.x.c')).toBeUndefined();
    expect(valueAtPath(record, 'list.0')).toBeUndefined();
  });

  it('renders cells and drops list metadata only', () => {
    expect(cellText(undefined)).toBe('');
    expect(cellText({ a: 1 })).toBe('{"a":1}');
    expect(withoutListMetadata({ number: '1', metadata: { totalCount: 3 } })).toEqual({ number: '1' });
  });
});

describe('tables', () => {
  it('pads columns to the widest cell, with a header and a rule', () => {
    const text = formatTable(
      [
        { number: '10001', name: 'Acme', status: 'Active' },
        { number: '10002', name: 'Globex Corporation', status: null },
      ],
      ['number', 'name', 'status'],
    );
    expect(text).toBe(
      ['number  name                status', '------  ------------------  ------', '10001   Acme                Active', '10002   Globex Corporation', ''].join('\n'),
    );
  });

  it('keeps every row on one line and cuts long cells with an ellipsis', () => {
    expect(tableCell('a\nb\tc')).toBe('a b c');
    expect(tableCell('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(tableCell('ÅÄÖ', 3)).toBe('ÅÄÖ');
  });

  it('measures width in code points, so non-ASCII names line up', () => {
    const text = formatTable([{ a: 'Ørsted', b: 'x' }, { a: 'ab', b: 'y' }], ['a', 'b']);
    expect(text.split('\n')[2]).toBe('Ørsted  x');
    expect(text.split('\n')[3]).toBe('ab      y');
  });

  it('shows one record as field/value rows', () => {
    const text = formatRecordTable(flattenRecord({ number: '1', mainAddress: { city: 'Oslo' } }));
    expect(text).toBe(['field             value', '----------------  -----', 'number            1', 'mainAddress.city  Oslo', ''].join('\n'));
  });
});
