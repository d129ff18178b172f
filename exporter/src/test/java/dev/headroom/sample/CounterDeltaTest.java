package dev.headroom.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What the trackers do with a pair of reads: a restart when it went back, else {@code cur - prev}. */
class CounterDeltaTest {
  /** The trackers' step: -1 for a restart (no rate from this pair), else the unsigned forward distance. */
  private static long step(long prev, long cur) {
    return CounterDelta.wentBack(prev, cur) ? -1 : cur - prev;
  }

  @Test
  void forwardStepIsTheDifference() {
    assertEquals(1500, step(1000, 2500));
    assertEquals(0, step(7, 7));
  }

  @Test
  void wrapPast64BitsCountsForward() {
    long prev = Long.parseUnsignedLong("18446744073709551000"); // 2^64 - 616
    long cur = 384;
    assertFalse(CounterDelta.wentBack(prev, cur));
    assertEquals(1000, step(prev, cur));
  }

  @Test
  void valuesAboveSignedRangeStillSubtract() {
    long prev = Long.parseUnsignedLong("10000000000000000000");
    long cur = Long.parseUnsignedLong("10000000000000001000");
    assertEquals(1000, step(prev, cur));
  }

  @Test
  void aForwardJumpPastTwoToTheSixtyThreeIsAnUnsignedDistanceNotARestart() {
    assertEquals(-1L - 5, step(5, -1L)); // 2^64 - 6 as an unsigned long
    assertFalse(CounterDelta.wentBack(5, -1L));
  }

  @Test
  void goingBackwardsIsARestartNotANegativeDelta() {
    assertTrue(CounterDelta.wentBack(5_000_000, 1_000));
  }

  @Test
  void aBackwardsStepFromMidRangeIsNotMistakenForAWrap() {
    assertTrue(CounterDelta.wentBack(Long.parseUnsignedLong("9223372036854775808"), 10));
  }
}
