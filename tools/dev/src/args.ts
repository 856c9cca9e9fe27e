/** Minimal `--name value` / `--flag` parsing for the dev commands (no dependency needed for this). */
export function parseArgs(argv: string[]): Map<string, string[]> {
  const args = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) continue;
    const [name, inline] = arg.slice(2).split('=', 2);
    const value = inline ?? (argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : 'true');
    args.set(name, [...(args.get(name) ?? []), value]);
  }
  return args;
}
