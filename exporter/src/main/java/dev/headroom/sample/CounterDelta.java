package dev.headroom.sample;

/**
 * Pure arithmetic for one kernel counter between two reads.
 *
 * <p>Usage: {@code long d = CounterDelta.of(prev, cur); if (d < 0) { restart } }
 */
public final class CounterDelta {
  /**
   * A backwards step is only a 64-bit wrap if both sides sit this close to the edge; anything else that
   * goes backwards is a restart. 2^40 bytes is about 8.8 Tbit: more than any interface moves in a sample.
   */
  static final long WRAP_WINDOW = 1L << 40;

  /** Returned when the counter restarted: the caller must not derive a rate from this pair. */
  public static final long RESTART = -1;

  private CounterDelta() {}

  /**
   * The forward distance from {@code prev} to {@code cur}, both unsigned 64-bit values in longs; a wrap
   * past 2^64 counts forward; any other step backwards returns {@link #RESTART}.
   */
  public static long of(long prev, long cur) {
    if (Long.compareUnsigned(cur, prev) >= 0) {
      long d = cur - prev;
      return d < 0 ? RESTART : d; // a jump of 2^63 or more is no traffic, it is a different counter
    }
    boolean nearTop = Long.compareUnsigned(prev, -WRAP_WINDOW) >= 0;
    boolean nearZero = Long.compareUnsigned(cur, WRAP_WINDOW) < 0;
    return nearTop && nearZero ? cur - prev : RESTART;
  }
}
