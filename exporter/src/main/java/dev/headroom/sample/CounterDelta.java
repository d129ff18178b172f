package dev.headroom.sample;

/**
 * Pure arithmetic for one kernel counter between two reads.
 *
 * <p>Usage: {@code long d = CounterDelta.wentBack(prev, cur) ? cur : cur - prev;}
 */
public final class CounterDelta {
  /**
   * A backwards step is only a 64-bit wrap if both sides sit this close to the edge; anything else that
   * goes backwards is a restart. 2^40 bytes is about 8.8 Tbit: more than any interface moves in a sample.
   */
  static final long WRAP_WINDOW = 1L << 40;

  private CounterDelta() {}

  /**
   * True when {@code cur} is below {@code prev} (unsigned) and the step is not a wrap past 2^64. Otherwise
   * {@code cur - prev} is the forward distance as an unsigned 64-bit value, a wrap counted forward (compare it
   * with {@link Long#compareUnsigned}: a lying counter can jump by more than 2^63).
   */
  public static boolean wentBack(long prev, long cur) {
    if (Long.compareUnsigned(cur, prev) >= 0) {
      return false;
    }
    boolean nearTop = Long.compareUnsigned(prev, -WRAP_WINDOW) >= 0;
    boolean nearZero = Long.compareUnsigned(cur, WRAP_WINDOW) < 0;
    return !(nearTop && nearZero);
  }
}
