import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { type Observable, throwError } from 'rxjs';

/**
 * The event transport's global exception filter: hands a handler's failure back to the transport
 * as it was thrown. Nest's default RPC filter replaces anything that is not an `RpcException` with
 * `{ status: 'error', message: 'Internal server error' }`, which would lose what the consumer acts
 * on: whether the database was unreachable (wait, attempts not spent), whether the payload was
 * invalid (dead-letter at once), and the reason written into the dead letter's headers.
 */
@Catch()
export class EventHandlerFailureFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
