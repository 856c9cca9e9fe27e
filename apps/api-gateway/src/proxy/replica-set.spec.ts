import { REFUSED_REPLICA_PAUSE_MS, ReplicaSet } from './replica-set';

describe('ReplicaSet', () => {
  it('takes the replicas in turn', () => {
    const set = new ReplicaSet(['a', 'b', 'c']);
    expect([1, 2, 3, 4, 5, 6].map(() => set.pick(0))).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('leaves a replica that refused a connection out of the turn until its pause ends', () => {
    const set = new ReplicaSet(['a', 'b']);
    set.refused('a', 1_000);
    expect([1, 2, 3].map(() => set.pick(1_000))).toEqual(['b', 'b', 'b']);
    expect([1, 2].map(() => set.pick(1_000 + REFUSED_REPLICA_PAUSE_MS)).sort()).toEqual(['a', 'b']);
  });

  it('still answers when every replica refused (the request then meets the outage)', () => {
    const set = new ReplicaSet(['a', 'b']);
    set.refused('a', 0);
    set.refused('b', 0);
    expect(['a', 'b']).toContain(set.pick(1));
  });

  it('refuses an empty list', () => {
    expect(() => new ReplicaSet([])).toThrow(/at least one/);
  });
});
