/**
 * The tuning of name-count registration, each with why it is what it is. The limits a client can
 * push against (one registration per company at a time, the replacement interval, the wait after
 * a failure) hold per company across replicas: they are kept in the database
 * (NameRegistrationLimits), never in one process's memory.
 */
export const NAME_COUNT_POLICY = {
  /** A company's fragment is marked used at most this often per process (the mark only orders eviction). */
  useMarkIntervalMs: 10 * 60_000,
  /** Bounds the memory of the use marks; clearing them only means marking again. */
  useMarksMax: 10_000,
  /** The backfill's snapshot holds back vacuum (it locks nothing writers wait on): never longer than this. */
  backfillTimeout: '30s',
  /** How long a registration waits for the writes open when its fragment appeared, before it gives up. */
  openWritesWaitMs: 10_000,
  openWritesPollMs: 20,
  /** Cells added per statement: each is a short upsert, like a write's own, on the new fragment's cells only. */
  adjustChunk: 500,
  /** A `building` fragment this old was left by a registration that died (a crash): it is dropped. */
  abandonedAfter: '10 minutes',
  /** Fragments of one company that wait in this process for its registration under way; more are dropped (a later search asks again). */
  pendingPerCompany: 4,
  /** After a registration that did not happen (open writes too long, too slow, an error, already there), the next try of that fragment waits this long. */
  retryAfterMs: 10 * 60_000,
  /**
   * A company's registration claim lapses this long after it was last renewed, so that a replica
   * that died mid-registration blocks its company's next one for at most this long. The steps renew
   * it; the longest step (the backfill) is bounded by `backfillTimeout`, well under it.
   */
  claimLeaseMs: 2 * 60_000,
} as const;
