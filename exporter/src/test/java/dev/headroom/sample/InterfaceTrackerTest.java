package dev.headroom.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.InterfaceCounters;
import dev.headroom.read.InterfaceReading;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class InterfaceTrackerTest {
  private static final long S = 1_000_000_000L;
  /** A bound no test traffic reaches. */
  private static final double MAX = 100e9;
  /** A 10 Gbit/s line rate; with the grace of one 1-s interval, 2.5e9 bytes in a second is the most believed. */
  private static final double TEN_GBE = InterfaceTracker.maxBytesPerSecond(1.25e9);

  private static InterfaceReading counters(int ifindex, long rx, long tx, long rxPackets, long txPackets, long rxDropped) {
    return new InterfaceReading("wt0", true, ifindex, 1280, "unknown",
        new InterfaceCounters(rx, tx, rxPackets, txPackets, 0, 0, rxDropped, 0), OptionalLong.empty(), false,
        OptionalInt.empty());
  }

  private static InterfaceReading wt0(int ifindex, long rx, long tx) {
    return new InterfaceReading("wt0", true, ifindex, 1280, "unknown",
        new InterfaceCounters(rx, tx, rx / 1000, tx / 1000, 0, 0, 0, 0), OptionalLong.empty(), false,
        OptionalInt.empty());
  }

  @Test
  void firstReadIsOnlyABaseline() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    assertFalse(t.update(wt0(7, 5_000_000, 9_000_000), 0, MAX));
    assertEquals(0, t.snapshot().rate(InterfaceTracker.TX_BYTES));
    assertEquals(0, t.snapshot().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void ratesComeFromTheMonotonicInterval() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    t.update(wt0(7, 0, 0), 0, MAX);
    t.update(wt0(7, 1_000_000, 250_000_000), 2 * S, MAX);
    assertEquals(125_000_000, t.snapshot().rate(InterfaceTracker.TX_BYTES), 1e-6);
    assertEquals(500_000, t.snapshot().rate(InterfaceTracker.RX_BYTES), 1e-6);
    assertEquals(250_000_000, t.snapshot().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void recreatedInterfaceCountsItsNewCountersWithoutSpikeOrNegative() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    t.update(wt0(7, 0, 0), 0, MAX);
    t.update(wt0(7, 0, 100_000_000), S, MAX);
    assertTrue(t.update(wt0(9, 0, 30_000_000), 2 * S, MAX));
    assertEquals(1, t.snapshot().restarts());
    assertEquals(30_000_000, t.snapshot().rate(InterfaceTracker.TX_BYTES), 1e-6);
    assertEquals(130_000_000, t.snapshot().total(InterfaceTracker.TX_BYTES));
    t.update(wt0(9, 0, 130_000_000), 3 * S, MAX);
    assertEquals(100_000_000, t.snapshot().rate(InterfaceTracker.TX_BYTES), 1e-6);
  }

  @Test
  void countersGoingBackwardsOnTheSameIfindexAreARestart() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    t.update(wt0(7, 0, 900_000_000), 0, MAX);
    assertTrue(t.update(wt0(7, 0, 1_000), S, MAX));
    assertTrue(t.snapshot().rate(InterfaceTracker.TX_BYTES) >= 0);
    assertEquals(1_000, t.snapshot().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void vanishedInterfaceReportsZeroAndResumesCleanly() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    t.update(wt0(7, 0, 0), 0, MAX);
    t.update(wt0(7, 0, 100_000_000), S, MAX);
    t.update(InterfaceReading.absent("wt0"), 2 * S, MAX);
    assertEquals(0, t.snapshot().rate(InterfaceTracker.TX_BYTES));
    t.update(InterfaceReading.absent("wt0"), 3 * S, MAX);
    assertTrue(t.update(wt0(12, 0, 5_000_000), 4 * S, MAX));
    assertEquals(5_000_000, t.snapshot().rate(InterfaceTracker.TX_BYTES), 1e-6);
    assertEquals(105_000_000, t.snapshot().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void sixtyFourBitWrapIsTrafficNotARestart() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    long nearTop = Long.parseUnsignedLong("18446744073709551000");
    t.update(wt0(7, 0, nearTop), 0, MAX);
    assertFalse(t.update(wt0(7, 0, 384), S, MAX));
    assertEquals(1000, t.snapshot().rate(InterfaceTracker.TX_BYTES), 1e-6);
  }

  @Test
  void aForwardJumpFasterThanTheLineIsDroppedNeverARate() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    t.update(wt0(7, 0, 1_000_000_000), 0, TEN_GBE);
    t.update(wt0(7, 0, 1_100_000_000), S, TEN_GBE);
    assertFalse(t.update(wt0(7, 0, 1_100_000_000 + 1_000_000_000_000_000L), 2 * S, TEN_GBE));
    assertTrue(Double.isNaN(t.snapshot().rate(InterfaceTracker.TX_BYTES)), "rate " + t.snapshot().rate(InterfaceTracker.TX_BYTES));
    assertEquals(100_000_000, t.snapshot().total(InterfaceTracker.TX_BYTES));
    assertEquals(0, t.snapshot().restarts());
    // bytes and packets both jumped
    assertEquals(2, t.snapshot().tooFast());
    t.update(wt0(7, 0, 1_100_000_000 + 1_000_000_000_000_000L + 50_000_000), 3 * S, TEN_GBE);
    assertEquals(50_000_000, t.snapshot().rate(InterfaceTracker.TX_BYTES), 1e-6);
    assertEquals(150_000_000, t.snapshot().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void aDeltaJustUnderTheBoundIsTraffic() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    t.update(wt0(7, 0, 0), 0, TEN_GBE);
    t.update(wt0(7, 0, 2_500_000_000L), S, TEN_GBE);
    assertEquals(2.5e9, t.snapshot().rate(InterfaceTracker.TX_BYTES), 1e-6);
    assertEquals(0, t.snapshot().tooFast());
  }

  @Test
  void aPassMomentsAfterTheLastIsJudgedWithOneIntervalOfGrace() {
    // A late sampler catches up with passes a millisecond apart; a driver refreshing its statistics once an
    // interval may hand one of them a whole interval's bytes, which is still believable.
    InterfaceTracker t = new InterfaceTracker(1.0);
    t.update(wt0(7, 0, 0), 0, TEN_GBE);
    t.update(wt0(7, 0, 1_250_000_000), S / 1000, TEN_GBE);
    assertEquals(0, t.snapshot().tooFast());
    assertEquals(1_250_000_000, t.snapshot().total(InterfaceTracker.TX_BYTES));
    // ... but 1.25e12 B/s over that millisecond is no rate: it is unknown, never a spike.
    assertTrue(Double.isNaN(t.snapshot().rate(InterfaceTracker.TX_BYTES)));
    t.update(wt0(7, 0, 2_600_000_000L), 2 * S / 1000, TEN_GBE);
    assertEquals(1, t.snapshot().tooFast());
    assertEquals(1_250_000_000, t.snapshot().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void aCounterAtTwoToTheSixtyFourMinusOneIsNoSpike() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    t.update(counters(7, 1_200_000_000, 1_600_000_000, 1_000, 2_000, 0), 0, TEN_GBE);
    t.update(counters(7, 1_200_000_000, -1L, 1_000, 2_000, 0), S, TEN_GBE);
    assertTrue(Double.isNaN(t.snapshot().rate(InterfaceTracker.TX_BYTES)));
    assertEquals(0, t.snapshot().rate(InterfaceTracker.RX_BYTES));
    assertEquals(0, t.snapshot().total(InterfaceTracker.TX_BYTES));
    assertEquals(0, t.snapshot().total(InterfaceTracker.RX_BYTES));
    assertEquals(0, t.snapshot().restarts());
    // Counting on from there wraps past 2^64: that much is traffic again.
    t.update(counters(7, 1_200_000_000, 4_999_999L, 1_000, 2_000, 0), 2 * S, TEN_GBE);
    assertEquals(5_000_000, t.snapshot().rate(InterfaceTracker.TX_BYTES), 1e-6);
    assertEquals(5_000_000, t.snapshot().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void aDropCounterGoingBackAloneIsNoRestartAndCountsNothingTwice() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    t.update(counters(7, 1_200_000_000, 1_600_000_000, 1_000, 2_000, 3), 0, TEN_GBE);
    assertFalse(t.update(counters(7, 1_200_000_000, 1_600_000_000, 1_000, 2_000, 2), S, TEN_GBE));
    assertEquals(0, t.snapshot().restarts());
    assertEquals(0, t.snapshot().total(InterfaceTracker.TX_BYTES));
    assertEquals(0, t.snapshot().total(InterfaceTracker.RX_BYTES));
    assertEquals(0, t.snapshot().rate(InterfaceTracker.TX_BYTES));
    assertEquals(1, t.snapshot().wentBack());
    t.update(counters(7, 1_200_000_000, 1_600_000_000, 1_000, 2_000, 5), 2 * S, TEN_GBE);
    assertEquals(3, t.snapshot().total(InterfaceTracker.RX_DROPPED));
  }

  @Test
  void oneByteCounterRestartingOnTheSameIfindexCreditsOnlyItsOwnNewValue() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    t.update(wt0(7, 1_200_000_000, 1_600_000_000), 0, TEN_GBE);
    assertTrue(t.update(wt0(7, 1_205_000_000, 1_000_000), S, TEN_GBE));
    assertEquals(1, t.snapshot().restarts());
    assertEquals(1_000_000, t.snapshot().total(InterfaceTracker.TX_BYTES));
    assertEquals(5_000_000, t.snapshot().total(InterfaceTracker.RX_BYTES));
  }

  @Test
  void anUnreadableInterfaceHasUnknownRatesAndTheNextReadSpansTheGap() {
    InterfaceTracker t = new InterfaceTracker(1.0);
    t.update(wt0(7, 0, 0), 0, TEN_GBE);
    t.update(wt0(7, 0, 100_000_000), S, TEN_GBE);
    t.unreadable();
    assertTrue(Double.isNaN(t.snapshot().rate(InterfaceTracker.TX_BYTES)));
    t.unreadable();
    t.update(wt0(7, 0, 400_000_000), 4 * S, TEN_GBE);
    assertEquals(100_000_000, t.snapshot().rate(InterfaceTracker.TX_BYTES), 1e-6);
    assertEquals(400_000_000, t.snapshot().total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void unknownRatesAreNoPeak() {
    PeakWindow w = new PeakWindow(3);
    w.add(10);
    w.add(Double.NaN);
    assertEquals(10, w.max());
  }

  @Test
  void peakWindowForgetsOldSamples() {
    PeakWindow w = new PeakWindow(3);
    w.add(10);
    w.add(50);
    w.add(20);
    assertEquals(50, w.max());
    w.add(5);
    w.add(6);
    w.add(7);
    assertEquals(7, w.max());
  }
}
