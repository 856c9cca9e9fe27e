/**
 * A small seeded pseudo-random generator (mulberry32): the same seed gives the same data on every
 * machine and every run, so two runs of a scenario load identical rows.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight: `[['Active', 80], ['Inactive', 10]]`. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = this.next() * total;
    for (const [value, weight] of choices) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return choices[choices.length - 1][0];
  }

  digits(count: number): string {
    let text = '';
    for (let i = 0; i < count; i++) text += String(Math.floor(this.next() * 10));
    return text;
  }

  /**
   * Draws one of several groups weighted by how many items each still has (`remaining`, summing to
   * `left`) and takes one from it: companies interleaved as in a shared table.
   */
  takeFrom(remaining: number[], left: number): number {
    let roll = this.next() * left;
    let c = 0;
    while (roll >= remaining[c] || remaining[c] === 0) {
      roll -= remaining[c];
      c++;
    }
    remaining[c]--;
    return c;
  }
}
