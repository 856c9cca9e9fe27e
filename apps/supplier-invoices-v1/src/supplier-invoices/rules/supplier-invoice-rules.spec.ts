import { ValidationFailedError } from '@erp/errors';
import { numberedLines, requestedStatus } from './supplier-invoice-rules';

describe('requestedStatus', () => {
  it('reads hold as the status Hold, and hold: false as a release', () => {
    expect(requestedStatus({ hold: true })).toEqual({ status: 'Hold' });
    expect(requestedStatus({ hold: false })).toEqual({ release: true });
    expect(requestedStatus({ status: 'Open', hold: false })).toEqual({ status: 'Open' });
    expect(requestedStatus({})).toEqual({});
  });

  it('refuses a hold that contradicts the status', () => {
    expect(() => requestedStatus({ status: 'Open', hold: true })).toThrow(ValidationFailedError);
  });
});

describe('numberedLines', () => {
  const line = (lineNumber?: number) => ({ lineNumber, quantity: 1, unitPrice: 1 });

  it('keeps the numbers sent and numbers the others by position', () => {
    expect(numberedLines([line(), line(7), line()]).map((l) => l.lineNumber)).toEqual([1, 7, 3]);
  });

  it('names the line whose number is already used', () => {
    expect(() => numberedLines([line(2), line()])).toThrow(expect.objectContaining({ fieldProblems: [expect.objectContaining({ field: 'invoiceLines[1].lineNumber' })] }));
  });
});
