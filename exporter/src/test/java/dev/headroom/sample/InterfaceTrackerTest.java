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

  private static InterfaceReading wt0(int ifindex, long rx, long tx) {
    return new InterfaceReading("wt0", true, ifindex, 1280, "unknown",
        new InterfaceCounters(rx, tx, rx / 1000, tx / 1000, 0, 0, 0, 0), OptionalLong.empty(), false, true,
        OptionalInt.empty());
  }

  @Test
  void firstReadIsOnlyABaseline() {
    InterfaceTracker t = new InterfaceTracker();
    assertFalse(t.update(wt0(7, 5_000_000, 9_000_000), 0));
    assertEquals(0, t.rate(InterfaceTracker.TX_BYTES));
    assertEquals(0, t.total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void ratesComeFromTheMonotonicInterval() {
    InterfaceTracker t = new InterfaceTracker();
    t.update(wt0(7, 0, 0), 0);
    t.update(wt0(7, 1_000_000, 250_000_000), 2 * S);
    assertEquals(125_000_000, t.rate(InterfaceTracker.TX_BYTES), 1e-6);
    assertEquals(500_000, t.rate(InterfaceTracker.RX_BYTES), 1e-6);
    assertEquals(250_000_000, t.total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void recreatedInterfaceCountsItsNewCountersWithoutSpikeOrNegative() {
    InterfaceTracker t = new InterfaceTracker();
    t.update(wt0(7, 0, 0), 0);
    t.update(wt0(7, 0, 100_000_000), S);
    assertTrue(t.update(wt0(9, 0, 30_000_000), 2 * S));
    assertEquals(1, t.restarts());
    assertEquals(30_000_000, t.rate(InterfaceTracker.TX_BYTES), 1e-6);
    assertEquals(130_000_000, t.total(InterfaceTracker.TX_BYTES));
    t.update(wt0(9, 0, 130_000_000), 3 * S);
    assertEquals(100_000_000, t.rate(InterfaceTracker.TX_BYTES), 1e-6);
  }

  @Test
  void countersGoingBackwardsOnTheSameIfindexAreARestart() {
    InterfaceTracker t = new InterfaceTracker();
    t.update(wt0(7, 0, 900_000_000), 0);
    assertTrue(t.update(wt0(7, 0, 1_000), S));
    assertTrue(t.rate(InterfaceTracker.TX_BYTES) >= 0);
    assertEquals(1_000, t.total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void vanishedInterfaceReportsZeroAndResumesCleanly() {
    InterfaceTracker t = new InterfaceTracker();
    t.update(wt0(7, 0, 0), 0);
    t.update(wt0(7, 0, 100_000_000), S);
    t.update(InterfaceReading.absent("wt0"), 2 * S);
    assertEquals(0, t.rate(InterfaceTracker.TX_BYTES));
    t.update(InterfaceReading.absent("wt0"), 3 * S);
    assertTrue(t.update(wt0(12, 0, 5_000_000), 4 * S));
    assertEquals(5_000_000, t.rate(InterfaceTracker.TX_BYTES), 1e-6);
    assertEquals(105_000_000, t.total(InterfaceTracker.TX_BYTES));
  }

  @Test
  void sixtyFourBitWrapIsTrafficNotARestart() {
    InterfaceTracker t = new InterfaceTracker();
    long nearTop = Long.parseUnsignedLong("18446744073709551000");
    t.update(wt0(7, 0, nearTop), 0);
    assertFalse(t.update(wt0(7, 0, 384), S));
    assertEquals(1000, t.rate(InterfaceTracker.TX_BYTES), 1e-6);
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

  @Test
  void scrapePeakStartsOverAtEachTake() {
    ScrapePeak p = new ScrapePeak();
    p.offer(10);
    p.offer(90);
    p.offer(20);
    assertEquals(90, p.take());
    p.offer(15);
    assertEquals(20, p.take()); // the new period starts at the latest rate, which still holds
  }
}
