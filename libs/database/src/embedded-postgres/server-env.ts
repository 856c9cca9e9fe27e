/** English messages regardless of the host locale, and no PG* variables leaking in. */
export function serverEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PG')));
  return { ...env, LC_MESSAGES: 'C', LC_ALL: 'C' };
}

export function emitLines(text: string, onLine: (line: string) => void): void {
  for (const line of text.split('\n')) if (line.trim()) onLine(line.trimEnd());
}
