import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { of } from 'rxjs';
import { unwrapV1Values, V1ValueUnwrapInterceptor } from './v1-value-unwrap.interceptor';

describe('unwrapV1Values', () => {
  it('leaves plain values as they are', () => {
    expect(unwrapV1Values({ name: 'Acme', creditLimit: 1000, active: true })).toEqual({
      name: 'Acme',
      creditLimit: 1000,
      active: true,
    });
  });

  it('unwraps a field sent as { value }', () => {
    expect(unwrapV1Values({ name: { value: 'Acme' }, status: { value: 'Active' } })).toEqual({
      name: 'Acme',
      status: 'Active',
    });
  });

  it('unwraps wrappers inside wrappers', () => {
    expect(unwrapV1Values({ name: { value: { value: 'Acme' } } })).toEqual({ name: 'Acme' });
  });

  it('unwraps fields of nested objects', () => {
    expect(
      unwrapV1Values({ mainAddress: { value: { city: { value: 'Oslo' }, postalCode: '0150' } } }),
    ).toEqual({
      mainAddress: { city: 'Oslo', postalCode: '0150' },
    });
  });

  it('unwraps each element of an array', () => {
    expect(unwrapV1Values({ lines: [{ quantity: { value: 2 } }, { value: 'x' }, 3] })).toEqual({
      lines: [{ quantity: 2 }, 'x', 3],
    });
  });

  it('leaves an object with value plus other keys as a real object', () => {
    const input = { value: 10, currency: 'NOK' };
    expect(unwrapV1Values({ amount: input })).toEqual({ amount: { value: 10, currency: 'NOK' } });
  });

  it('still unwraps the children of an object it leaves alone', () => {
    expect(unwrapV1Values({ value: 'x', note: { value: 'y' } })).toEqual({ value: 'x', note: 'y' });
  });

  it('keeps null, both plain and wrapped, so a field can be cleared', () => {
    expect(unwrapV1Values(null)).toBeNull();
    expect(unwrapV1Values({ phone1: { value: null }, email: null })).toEqual({ phone1: null, email: null });
  });

  it('does not change the input', () => {
    const input = { name: { value: 'Acme' } };
    unwrapV1Values(input);
    expect(input).toEqual({ name: { value: 'Acme' } });
  });
});

describe('V1ValueUnwrapInterceptor', () => {
  function contextWith(request: { body?: unknown }): ExecutionContext {
    return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
  }

  it('unwraps the request body before the handler (and its pipes) run', () => {
    const request: { body?: unknown } = { body: { name: { value: 'Acme' } } };
    const next: CallHandler = { handle: () => of('done') };
    new V1ValueUnwrapInterceptor().intercept(contextWith(request), next);
    expect(request.body).toEqual({ name: 'Acme' });
  });

  it('leaves a request without a body alone', () => {
    const request: { body?: unknown } = {};
    new V1ValueUnwrapInterceptor().intercept(contextWith(request), { handle: () => of('done') });
    expect('body' in request).toBe(false);
  });
});
