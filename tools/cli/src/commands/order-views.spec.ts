import { CliError } from '../cli-error';
import { ExitCode } from '../exit-codes';
import { formatOrderView, orderViewOf } from './order-views';

describe('erp order-view', () => {
  it('takes the five views of the API, in any case', () => {
    expect(orderViewOf('tax')).toBe('tax');
    expect(orderViewOf('RotRut')).toBe('rotrut');
    let error: unknown;
    try {
      orderViewOf('lines');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CliError);
    expect(error).toMatchObject({ exitCode: ExitCode.Usage, message: expect.stringMatching(/commissions, discounts, tax, rotrut, shipment/) });
  });

  it('shows a list view as one row per entry and ROT/RUT as field/value pairs', () => {
    const table = formatOrderView([{ taxId: 'VAT25', taxAmount: 331.26 }, { taxId: 'VAT12', taxAmount: 2.57 }]).split('\n');
    expect(table[0]).toMatch(/^taxId\s+taxAmount/);
    expect(table.filter((line) => line.includes('VAT'))).toHaveLength(2);
    expect(formatOrderView({ type: 'ROT', distribution: [] })).toMatch(/type\s+ROT/);
    expect(formatOrderView([])).toBe('');
  });
});
