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

  it('leaves a replica out while its readiness fails, and takes it back once ready', () => {
    const set = new ReplicaSet(['a', 'b', 'c']);
    set.setReady('b', false);
    expect([1, 2, 3, 4].map(() => set.pick(0))).toEqual(['a', 'c', 'a', 'c']);
    set.setReady('b', true);
    expect([1, 2, 3].map(() => set.pick(0)).sort()).toEqual(['a', 'b', 'c']);
  });

  it('sends a retry to another replica, an available one first', () => {
    const set = new ReplicaSet(['a', 'b', 'c']);
    expect(set.pickOther('a', 0)).not.toBe('a');
    set.setReady('b', false);
    expect([1, 2, 3].map(() => set.pickOther('a', 0))).toEqual(['c', 'c', 'c']);
    set.refused('c', 0);
    // Nothing else available: another replica all the same (it may still answer), never the failed one.
    expect(['b', 'c']).toContain(set.pickOther('a', 1));
  });

  it('sends a retry to the same URL when it is the only one (a Kubernetes Service)', () => {
    const set = new ReplicaSet(['svc']);
    set.refused('svc', 0);
    expect(set.pickOther('svc', 1)).toBe('svc');
  });

  it('refuses an empty list', () => {
    expect(() => new ReplicaSet([])).toThrow(/at least one/);
  });
});
