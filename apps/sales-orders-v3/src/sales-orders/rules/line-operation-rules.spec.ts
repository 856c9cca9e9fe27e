import { validateBodyShape as validateBody } from '@erp/errors';
import { AddSalesOrderLinesDto, PatchSalesOrderLinesDto } from '../dto/sales-order-lines.dto';
import { addLinesPatch, addLinesRuleProblems, deleteLinesPatch, parseDeleteLineIds, patchLinesPatch, patchLinesRuleProblems } from './line-operation-rules';

const fields = (problems: Array<{ field: string }>) => problems.map((p) => p.field);

describe('line operations as order PATCH line changes', () => {
  it('POST .../lines: every line is an insert, and needs inventoryId and quantity (unitPrice with hasManualPrice true)', () => {
    const dto = validateBody(AddSalesOrderLinesDto, { lines: [{ inventoryId: 'A', quantity: 1, unitPrice: 2, operation: null }, { note: 'x', hasManualPrice: true }] }).dto;
    expect(addLinesPatch(dto).lines).toEqual([
      { operation: 'insert', inventoryId: 'A', quantity: 1, unitPrice: 2 },
      { operation: 'insert', note: 'x', hasManualPrice: true },
    ]);
    expect(fields(addLinesRuleProblems(dto))).toEqual(['lines[1].inventoryId', 'lines[1].quantity', 'lines[1].unitPrice']);
  });

  it('PATCH .../lines: every entry is an update of its lineId, each line named once', () => {
    const dto = validateBody(PatchSalesOrderLinesDto, { lines: [{ lineId: 4, quantity: 2 }, { lineId: 4, note: null }] }).dto;
    expect(patchLinesPatch(dto).lines).toEqual([
      { operation: 'update', lineId: 4, quantity: 2 },
      { operation: 'update', lineId: 4, note: null },
    ]);
    expect(fields(patchLinesRuleProblems(dto))).toEqual(['lines[1].lineId']);
  });

  it('refuses a line operation value: the service keeps no Issue/Receipt direction, and insert/update/delete is the method', () => {
    const shape = validateBody(PatchSalesOrderLinesDto, { lines: [{ lineId: 1, operation: 'Issue' }, { lineId: 2, operation: 'update' }, { lineId: 3, operation: null }] });
    expect(fields(shape.problems)).toEqual(['lines[0].operation', 'lines[1].operation']);
  });

  it('DELETE ?ids=: comma-separated and repeated values, each problem at its index', () => {
    expect(parseDeleteLineIds(['1,2', '3'])).toEqual({ ids: [1, 2, 3], problems: [] });
    const { ids, problems } = parseDeleteLineIds('5, x,5,0,2147483648');
    expect(ids).toEqual([5, undefined, 5, undefined, undefined]);
    expect(fields(problems)).toEqual(['ids[1]', 'ids[3]', 'ids[4]', 'ids[2]']);
    expect(deleteLinesPatch([5, 6]).lines).toEqual([
      { operation: 'delete', lineId: 5 },
      { operation: 'delete', lineId: 6 },
    ]);
  });

  it('DELETE ?ids=: none is a 400 on ids, and so is more than 1000', () => {
    expect(fields(parseDeleteLineIds(undefined).problems)).toEqual(['ids']);
    expect(fields(parseDeleteLineIds('').problems)).toEqual(['ids']);
    const thousand = Array.from({ length: 1000 }, (_, i) => i + 1).join(',');
    expect(parseDeleteLineIds(thousand).problems).toEqual([]);
    expect(parseDeleteLineIds(`${thousand},1001`).problems).toEqual([
      expect.objectContaining({ field: 'ids', message: expect.stringContaining('at most 1000') }),
    ]);
  });
});
