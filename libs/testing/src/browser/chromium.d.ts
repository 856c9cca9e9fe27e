/** Flags for a headless run on a machine with no network but loopback and no GPU (root-safe). */
export declare const HEADLESS_CHROMIUM_ARGS: readonly string[];
/**
 * The Chromium browser tests drive: `CHROMIUM_PATH` when set (a browser found on the machine, e.g.
 * Debian's `/usr/bin/chromium`), otherwise the one the repository brings through npm
 * (`@sparticuz/chromium`), so `npm test` needs no browser download and no system package.
 */
export declare function chromiumExecutablePath(): Promise<string>;
