import { ValidationFailedError } from './api-error';
import { DETAIL_CODES } from './fault-codes';
import { refuseUnknownParameters, UNKNOWN_PARAMETER_MESSAGE, unknownParameterProblems } from './unknown-parameters';

describe('unknown query parameters', () => {
  it('names each parameter the endpoint does not take, with the one message and detail code', () => {
    expect(unknownParameterProblems({ pageSize: '1', nmae: 'x', __proto__x: 'y' }, ['pageSize'])).toEqual([
      { field: 'nmae', message: UNKNOWN_PARAMETER_MESSAGE, code: DETAIL_CODES.unknownProperty },
      { field: '__proto__x', message: UNKNOWN_PARAMETER_MESSAGE, code: DETAIL_CODES.unknownProperty },
    ]);
  });

  it('refuses them with one 400, and lets known ones through', () => {
    expect(() => refuseUnknownParameters({ ids: '1' }, new Set(['ids']))).not.toThrow();
    let error: unknown;
    try {
      refuseUnknownParameters({ expand: 'x', a: '1', b: '2' }, ['expand']);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).fieldProblems.map((p) => p.field)).toEqual(['a', 'b']);
  });
});
