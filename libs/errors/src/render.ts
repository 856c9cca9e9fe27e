import { randomUUID } from 'node:crypto';
import type { ApiError } from './api-error';
import { FAULTS, problemTypeUri } from './fault-codes';

/** Which wire shape an error takes: the v1 family's or RFC 9457 problem+json (v3, webhooks). */
export type ErrorFamily = 'v1' | 'problem';

export function errorFamilyForPath(path: string): ErrorFamily {
  return /^\/v1(\/|$|\?)/i.test(path) ? 'v1' : 'problem';
}

export interface RenderedError {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface V1ErrorBody {
  ExceptionType: string;
  ExceptionMessage: string;
  ExceptionFaultCode: string;
  ExceptionMessageID: string;
  ExceptionDetails: string;
}

/** The problem+json body `renderProblem` writes (v3, webhooks); `errors` and `details` only for field problems. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: Record<string, string[]>;
  details?: Array<{ code: string; message: string; parameters: { property: string } }>;
}

export function renderV1Error(err: ApiError): RenderedError {
  const fault = FAULTS[err.fault];
  const body: V1ErrorBody = {
    ExceptionType: fault.exceptionType,
    ExceptionMessage: err.message,
    ExceptionFaultCode: fault.code,
    ExceptionMessageID: `${fault.code}_${randomUUID()}`,
    ExceptionDetails: '',
  };
  return {
    status: err.status,
    headers: { ...err.headers, 'content-type': 'application/json; charset=utf-8' },
    body: { ...body },
  };
}

export function renderProblem(err: ApiError, instance: string): RenderedError {
  const fault = FAULTS[err.fault];
  const body: ProblemBody = {
    type: problemTypeUri(err.fault),
    title: fault.title,
    status: err.status,
    detail: err.message,
    instance,
  };
  if (err.fieldProblems.length > 0) {
    // No prototype: a field named `__proto__` or `constructor` (from a query key) is a plain key here.
    const errors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
    for (const p of err.fieldProblems) (errors[p.field] ??= []).push(p.message);
    body.errors = errors;
    body.details = err.fieldProblems.map((p) => ({
      code: p.code,
      message: p.message,
      parameters: { property: p.field },
    }));
  }
  return {
    status: err.status,
    headers: { ...err.headers, 'content-type': 'application/problem+json; charset=utf-8' },
    body: { ...body },
  };
}

export function renderError(err: ApiError, family: ErrorFamily, instance: string): RenderedError {
  return family === 'v1' ? renderV1Error(err) : renderProblem(err, instance);
}
