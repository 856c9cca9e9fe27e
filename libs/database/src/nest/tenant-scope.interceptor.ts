import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { runAsCompany } from '../tenancy/tenant-scope';

/** What `@erp/auth`'s AuthGuard leaves on the request (guards run before interceptors). */
interface RequestWithCompany {
  auth?: { companyId?: string };
}

/**
 * Runs every handler in its request's company scope, so all its database work is limited to that
 * company's rows by the tenant wall. Routes without a company (public ones: health, metrics, the
 * API document) get the empty company: they see no tenant rows at all.
 */
@Injectable()
export class TenantScopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const companyId = context.switchToHttp().getRequest<RequestWithCompany>().auth?.companyId ?? '';
    // Nest binds next.handle()'s work to the async context it is called in.
    return runAsCompany(companyId, () => next.handle());
  }
}
