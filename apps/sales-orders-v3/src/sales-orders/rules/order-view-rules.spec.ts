import type { OrderViewFieldsDto } from '../dto/order-views.dto';
import { orderViewProblems, rotRutLineProblems, rotRutLineRefs } from './order-view-rules';

const fields = (dto: object): string[] => orderViewProblems(dto as OrderViewFieldsDto).map((p) => p.field).sort();

describe('orderViewProblems', () => {
  it('has none for a body without view parts, or with valid ones', () => {
    expect(fields({})).toEqual([]);
    expect(
      fields({
        discounts: [{ discountId: 'A', discountPercent: 1 }, { discountId: 'B', discountAmount: 2 }],
        taxes: [{ taxId: 'T1' }, { taxId: 'T2' }],
        rotRut: { type: 'ROT', distribution: [{ lineId: 1, personalId: '19800101-1234', amount: 1 }] },
        shipments: [{ id: 'S1' }, { id: 'S2' }],
      }),
    ).toEqual([]);
  });

  it('wants exactly one of discountPercent and discountAmount', () => {
    expect(fields({ discounts: [{ discountId: 'A' }, { discountId: 'B', discountPercent: 1, discountAmount: 1 }, { discountId: 'C', discountPercent: null, discountAmount: 3 }] })).toEqual([
      'discounts[0].discountPercent',
      'discounts[1].discountAmount',
    ]);
  });

  it('names a repeated key at its second place', () => {
    expect(fields({ discounts: [{ discountId: 'A', discountPercent: 1 }, { discountId: 'A', discountPercent: 2 }], taxes: [{ taxId: 'T' }, { taxId: 'U' }, { taxId: 'T' }], shipments: [{ id: 'S' }, { id: 'S' }] })).toEqual([
      'discounts[1]',
      'shipments[1]',
      'taxes[2]',
    ]);
  });

  it('ROT/RUT: amounts given unless distributed automatically, then refused; one share per person and line', () => {
    const person = { lineId: 1, personalId: '19800101-1234' };
    expect(fields({ rotRut: { type: 'ROT', distribution: [person] } })).toEqual(['rotRut.distribution[0].amount']);
    expect(fields({ rotRut: { type: 'ROT', distributedAutomatically: true, distribution: [{ ...person, amount: 5 }, { lineId: 2, personalId: '19800101-1234' }] } })).toEqual([
      'rotRut.distribution[0].amount',
    ]);
    expect(fields({ rotRut: { type: 'RUT', distributedAutomatically: true, distribution: [person, person] } })).toEqual(['rotRut.distribution[1]']);
  });

  it('leaves entries of the wrong shape to the DTO rules', () => {
    expect(fields({ discounts: [null, 'x'], taxes: 'x', rotRut: 'x', shipments: [1] })).toEqual([]);
  });
});

describe('rotRutLineProblems', () => {
  it('names each distribution entry whose line the order will not have', () => {
    const dto = { rotRut: { type: 'ROT', distribution: [{ lineId: 1 }, { lineId: 7 }, { lineId: 0 }, { lineId: 'x' }, { lineId: 2 ** 31 }] } } as unknown as OrderViewFieldsDto;
    const refs = rotRutLineRefs(dto);
    expect(refs).toEqual([{ index: 0, lineId: 1 }, { index: 1, lineId: 7 }]);
    expect(rotRutLineProblems(refs, new Set([1, 2])).map((p) => [p.field, p.code])).toEqual([['rotRut.distribution[1].lineId', '0007-UnknownReference']]);
    expect(rotRutLineRefs({})).toEqual([]);
  });
});
