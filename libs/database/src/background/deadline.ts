/** Raised by `withTimeout` when the time is up (the promise itself may still settle later). */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * The promise, or a `TimeoutError` after `ms`. The timer is cleared as soon as the promise settles,
 * so a waited-on promise never leaves a timer behind (Jest exits by itself).
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, message = `timed out after ${ms} ms`): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError(message)), Math.max(0, ms));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
