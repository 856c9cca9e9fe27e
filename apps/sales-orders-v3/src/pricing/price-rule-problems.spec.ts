import { validateBodyShape as validateBody } from '@erp/errors';
import { isCalendarDate, PutPriceListDto } from './dto/price-rules.dto';
import { priceListProblems, priceListReferences, repeatedCustomerProblems } from './price-rule-problems';

const fields = (problems: Array<{ field: string }>) => problems.map((p) => p.field);

describe('price rule body rules', () => {
  it('one target per entry, dates in order, one price per item, target, quantity break and start', () => {
    const { dto } = validateBody(PutPriceListDto, {
      currencyId: 'NOK',
      entries: [
        { inventoryId: 'A', unitPrice: 1, customerId: 'C', priceClassId: 'K' },
        { inventoryId: 'A', unitPrice: 1, effectiveFrom: '2026-02-01', effectiveTo: '2026-01-31' },
        { inventoryId: 'A', unitPrice: 1, minQuantity: 5 },
        { inventoryId: 'A', unitPrice: 2, minQuantity: '5.00' },
        { inventoryId: 'A', unitPrice: 2, minQuantity: 5, customerId: 'C' },
        { inventoryId: 'A', unitPrice: 2, effectiveFrom: '2026-02-01', effectiveTo: '2026-02-01' },
      ],
    });
    expect(fields(priceListProblems(dto))).toEqual(['entries[0].priceClassId', 'entries[1].effectiveTo', 'entries[3]', 'entries[5]']);
  });

  it('collects the well-formed customer and class references', () => {
    const { dto } = validateBody(PutPriceListDto, { currencyId: 'NOK', entries: [{ inventoryId: 'A', unitPrice: 1, customerId: 'C1' }, { inventoryId: 'A', unitPrice: 1, priceClassId: 'K' }, { inventoryId: 'A', unitPrice: 1, priceClassId: 'bad id!' }] });
    expect(priceListReferences(dto)).toEqual({ customers: [{ field: 'entries[0].customerId', id: 'C1' }], classes: [{ field: 'entries[1].priceClassId', id: 'K' }] });
  });

  it('a customer listed twice in a class', () => {
    expect(fields(repeatedCustomerProblems(['A', 'B', 'A']))).toEqual(['customers[2]']);
  });

  it('calendar dates: only days that exist', () => {
    expect(['2026-01-31', '2024-02-29'].map(isCalendarDate)).toEqual([true, true]);
    expect(['2026-02-30', '2026-13-01', '2026-00-10', '2026-1-01', '2025-02-29'].map(isCalendarDate)).toEqual([false, false, false, false, false]);
  });
});
