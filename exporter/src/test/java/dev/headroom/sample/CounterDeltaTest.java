package dev.headroom.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CounterDeltaTest {
  @Test
  void forwardStepIsTheDifference() {
    assertEquals(1500, CounterDelta.of(1000, 2500));
    assertEquals(0, CounterDelta.of(7, 7));
  }

  @Test
  void wrapPast64BitsCountsForward() {
    long prev = Long.parseUnsignedLong("18446744073709551000"); // 2^64 - 616
    long cur = 384;
    assertEquals(1000, CounterDelta.of(prev, cur));
  }

  @Test
  void valuesAboveSignedRangeStillSubtract() {
    long prev = Long.parseUnsignedLong("10000000000000000000");
    long cur = Long.parseUnsignedLong("10000000000000001000");
    assertEquals(1000, CounterDelta.of(prev, cur));
  }

  @Test
  void aForwardJumpPastTwoToTheSixtyThreeIsAnUnsignedDistanceNotARestart() {
    assertEquals(-1L - 5, CounterDelta.of(5, -1L)); // 2^64 - 6 as an unsigned long
    assertEquals(false, CounterDelta.wentBack(5, -1L));
  }

  @Test
  void goingBackwardsIsARestartNotANegativeDelta() {
    assertEquals(CounterDelta.RESTART, CounterDelta.of(5_000_000, 1_000));
  }

  @Test
  void aBackwardsStepFromMidRangeIsNotMistakenForAWrap() {
    assertEquals(CounterDelta.RESTART, CounterDelta.of(Long.parseUnsignedLong("9223372036854775808"), 10));
  }
}
