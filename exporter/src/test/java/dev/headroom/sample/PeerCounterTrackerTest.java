package dev.headroom.sample;

import static dev.headroom.sample.InterfaceTracker.RX_BYTES;
import static dev.headroom.sample.InterfaceTracker.TX_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.wg.NetbirdStatusParser;
import dev.headroom.testing.NetbirdJson;
import dev.headroom.testing.NetbirdJson.Peer;
import org.junit.jupiter.api.Test;

/** Per-peer counters from NetBird's status JSON, judged peer by peer. */
class PeerCounterTrackerTest {
  private static final long S = 1_000_000_000L;
  private static final double LINE = 1.25e9; // 10 Gbit/s
  private final PeerCounterTracker t = new PeerCounterTracker(5);

  /** One status document in NetBird's shape, parsed as the collector would. */
  private Traffic at(long seconds, Peer... peers) {
    t.update(NetbirdStatusParser.parse(NetbirdJson.netstack(peers)).transfers(), seconds * S, LINE);
    return t.snapshot();
  }

  @Test
  void twoPeersMovingTrafficSumPerDirectionDownloadBeingWhatThePeerSent() {
    Traffic first = at(0, NetbirdJson.peer("A=", 1_000, 50_000), NetbirdJson.peer("B=", 2_000, 70_000));
    assertTrue(Double.isNaN(first.rate(TX_BYTES)), "a baseline only: no interval, no rate yet");
    assertEquals(0, first.total(TX_BYTES));
    Traffic next = at(5, NetbirdJson.peer("A=", 6_000, 5_050_000), NetbirdJson.peer("B=", 7_000, 10_070_000));
    assertEquals((5_000_000 + 10_000_000) / 5.0, next.rate(TX_BYTES), 1e-9);
    assertEquals((5_000 + 5_000) / 5.0, next.rate(RX_BYTES), 1e-9);
    assertEquals(15_000_000, next.total(TX_BYTES));
    assertEquals(10_000, next.total(RX_BYTES));
    assertEquals(5.0, next.intervalSeconds(), 1e-12);
    assertTrue(Double.isNaN(next.rate(InterfaceTracker.TX_PACKETS))); // NetBird reports no packets
  }

  @Test
  void aPeerReconnectingMidRunCountsOnlyItsNewBytesAndNeverGoesNegative() {
    at(0, NetbirdJson.peer("A=", 100_000, 9_000_000), NetbirdJson.peer("B=", 1_000, 1_000_000));
    // A reconnected within the interval: its counters restarted and now read 40 kB sent since.
    Traffic r = at(5, NetbirdJson.peer("A=", 2_000, 40_000), NetbirdJson.peer("B=", 2_000, 2_000_000));
    assertEquals(40_000 + 1_000_000, r.total(TX_BYTES)); // A's 40 kB are new; B moved 1 MB
    assertEquals((40_000 + 1_000_000) / 5.0, r.rate(TX_BYTES), 1e-9);
    assertEquals(1, r.restarts());
    // And from there A counts on from its new value: no double count of the 40 kB.
    Traffic after = at(10, NetbirdJson.peer("A=", 2_000, 140_000), NetbirdJson.peer("B=", 2_000, 2_000_000));
    assertEquals(100_000 / 5.0, after.rate(TX_BYTES), 1e-9);
    assertEquals(1_140_000, after.total(TX_BYTES));
  }

  @Test
  void aPeerGoingIdleAndBackIsARestartNotANegativeRate() {
    at(0, NetbirdJson.peer("A=", 10, 5_000_000));
    Traffic idle = at(5, NetbirdJson.idle("A=")); // NetBird prints 0 while it is not connected
    assertEquals(0, idle.rate(TX_BYTES));
    Traffic back = at(10, NetbirdJson.peer("A=", 10, 300));
    assertEquals(300 / 5.0, back.rate(TX_BYTES), 1e-9);
    assertEquals(300, back.total(TX_BYTES));
  }

  @Test
  void aPeerAddedCountsWhatItMovedSinceAndAPeerRemovedDropsOutTakingNothingBack() {
    at(0, NetbirdJson.peer("A=", 0, 1_000_000), NetbirdJson.peer("B=", 0, 8_000_000));
    Traffic r = at(5, NetbirdJson.peer("A=", 0, 2_000_000), NetbirdJson.peer("C=", 0, 500_000));
    assertEquals(1_000_000 + 500_000, r.total(TX_BYTES)); // B gone: its 8 MB are not subtracted
    assertEquals(1_500_000 / 5.0, r.rate(TX_BYTES), 1e-9);
    assertEquals(0, r.restarts());
  }

  @Test
  void aPeerComingBackAfterItWasRemovedStartsAtZero() {
    at(0, NetbirdJson.peer("A=", 0, 7_000_000));
    at(5);
    Traffic back = at(10, NetbirdJson.peer("A=", 0, 2_000));
    assertEquals(2_000 / 5.0, back.rate(TX_BYTES), 1e-9);
    assertEquals(2_000, back.total(TX_BYTES));
    // A recreated tunnel is listed without peers until they are added again: one status away, and back with its
    // counters below the last it had, it restarted.
    assertEquals(1, back.restarts());
  }

  @Test
  void aPeerAwayForLongerOrBackWithMoreIsNotCountedAsARestart() {
    at(0, NetbirdJson.peer("A=", 0, 7_000), NetbirdJson.peer("B=", 0, 1_000));
    at(5, NetbirdJson.peer("B=", 0, 1_000));
    at(10, NetbirdJson.peer("B=", 0, 1_000));
    Traffic later = at(15, NetbirdJson.peer("A=", 0, 2_000), NetbirdJson.peer("B=", 0, 1_000));
    assertEquals(0, later.restarts(), "two statuses away: a peer added, not one restarted");
    at(20);
    Traffic more = at(25, NetbirdJson.peer("A=", 0, 9_000));
    assertEquals(0, more.restarts(), "back with more than before: not a restart");
    assertEquals(2_000 + 9_000, more.total(TX_BYTES));
  }

  @Test
  void moreThanTheLineCouldCarryIsDroppedNotASpike() {
    at(0, NetbirdJson.peer("A=", 0, 1_000));
    // A peer first listed with 1 TB counted since long before: no 10 Gbit/s line moves that in 5 s.
    Traffic r = at(5, NetbirdJson.peer("A=", 0, 2_000), NetbirdJson.peer("OLD=", 0, 1_000_000_000_000L));
    assertTrue(Double.isNaN(r.rate(TX_BYTES)));
    assertEquals(0, r.total(TX_BYTES));
    assertEquals(1, r.tooFast());
    // Re-based: the next interval is believed again.
    Traffic next = at(10, NetbirdJson.peer("A=", 0, 3_000), NetbirdJson.peer("OLD=", 0, 1_000_000_005_000L));
    assertEquals(6_000 / 5.0, next.rate(TX_BYTES), 1e-9);
    assertEquals(6_000, next.total(TX_BYTES));
  }

  @Test
  void anUnreadableStatusLeavesRatesUnknownAndTheNextGoodOneSpansTheGap() {
    at(0, NetbirdJson.peer("A=", 0, 1_000));
    t.unreadable();
    assertTrue(Double.isNaN(t.snapshot().rate(TX_BYTES)));
    Traffic r = at(10, NetbirdJson.peer("A=", 0, 11_000));
    assertEquals(10_000 / 10.0, r.rate(TX_BYTES), 1e-9);
    assertEquals(10_000, r.total(TX_BYTES));
  }

  @Test
  void aKeyListedTwiceIsOnePeer() {
    at(0, NetbirdJson.peer("A=", 0, 1_000));
    Traffic r = at(5, NetbirdJson.peer("A=", 0, 2_000), NetbirdJson.peer("A=", 0, 2_000));
    assertEquals(1_000, r.total(TX_BYTES));
  }

  @Test
  void afterForgetTheNextStatusIsABaselineAndTotalsStay() {
    at(0, NetbirdJson.peer("A=", 0, 1_000));
    at(5, NetbirdJson.peer("A=", 0, 6_000));
    t.forget();
    Traffic b = at(10, NetbirdJson.peer("A=", 0, 900_000));
    assertTrue(Double.isNaN(b.rate(TX_BYTES)), "a baseline: no rate yet");
    assertEquals(5_000, b.total(TX_BYTES));
  }
}
