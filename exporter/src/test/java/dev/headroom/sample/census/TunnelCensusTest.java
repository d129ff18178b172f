package dev.headroom.sample.census;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.headroom.read.wg.Connection;
import dev.headroom.read.wg.PeerTransfer;
import dev.headroom.read.wg.TunnelPeer;
import dev.headroom.sample.Direction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TunnelCensusTest {

  private static final long SEC = 1_000_000_000L;
  private static final long NOW = 1_796_007_311L;

  private final TunnelCensus census = new TunnelCensus(CensusConfig.defaults());

  private static String key(int i) {
    return String.format("%064x", i);
  }

  private static TunnelPeer peer(int i, long rx, long tx) {
    return new TunnelPeer(key(i), rx, tx, NOW - 5, "198.51.100." + (i % 250) + ":51820", 1);
  }

  private static TunnelPeer peer(int i, long rx, long tx, long handshake) {
    return new TunnelPeer(key(i), rx, tx, handshake, null, 1);
  }

  @Test
  void tunnelsAreNamedAndSplitByConnectionFromNetbirdOrElseTheirEndpoint() {
    // Peer 1 NetBird lists as relayed (its endpoint the eBPF proxy's loopback), peer 2 as P2P; peer 3 NetBird does
    // not list, on wireguard-go's made-up relay address; peer 4 unlisted with its own outer address.
    String b64 = java.util.Base64.getEncoder().encodeToString(java.util.HexFormat.of().parseHex(key(1)));
    java.util.Map<String, PeerTransfer> netbird = java.util.Map.of(
        key(1), new PeerTransfer(b64, true, 0, 0, NOW - 5, null, 0, "alice-laptop.netbird.cloud", Connection.RELAYED),
        key(2), new PeerTransfer("k2", true, 0, 0, NOW - 5, null, 0, "bob-pc.netbird.cloud", Connection.P2P));
    List<TunnelPeer> first = List.of(at(1, 0, "127.0.0.1:40001"), at(2, 0, "203.0.113.9:51820"),
        at(3, 0, "127.1.7.9:51820"), at(4, 0, "198.51.100.4:51820"));
    census.update(0, NOW, first, netbird);
    CensusSnapshot s = census.update(SEC, NOW, List.of(at(1, 4_000_000, "127.0.0.1:40001"),
        at(2, 1_000_000, "203.0.113.9:51820"), at(3, 2_000_000, "127.1.7.9:51820"),
        at(4, 500_000, "198.51.100.4:51820")), netbird);
    assertEquals(6_000_000, s.directions().download().bytesPerSecond(Connection.RELAYED), 1e-6);
    assertEquals(1_500_000, s.directions().download().bytesPerSecond(Connection.P2P), 1e-6);
    assertEquals(0, s.directions().download().bytesPerSecond(Connection.UNKNOWN), 1e-6);
    assertEquals(Connection.RELAYED, s.directions().download().hottestConnection());
    Talker top = s.topTalkers().get(0);
    assertEquals("alice-laptop.netbird.cloud", top.shownName());
    assertEquals(Connection.RELAYED, top.connection());
    Talker unlisted = s.topTalkers().get(1);
    assertEquals(unlisted.key(), unlisted.shownName(), "without a NetBird name the key prefix stands");
    assertEquals(Connection.RELAYED, unlisted.connection());
  }

  private static TunnelPeer at(int i, long tx, String endpoint) {
    return new TunnelPeer(key(i), 0, tx, NOW - 5, endpoint, 1);
  }

  @Test
  void firstReadingCountsTunnelsButHasNoRates() {
    CensusSnapshot s = census.update(10 * SEC, NOW, List.of(peer(1, 5_000, 9_000), peer(2, 0, 0)));
    assertEquals(2, s.tunnels());
    assertEquals(2, s.appeared());
    assertFalse(s.hasRates());
    assertEquals(0, s.directions().download().totalBytesPerSecond());
    assertEquals(0, s.active());
    assertEquals(List.of(), s.topTalkers());
  }

  @Test
  void downloadIsWireguardTxToThePeerAndUploadIsRx() {
    census.update(0, NOW, List.of(peer(1, 1_000, 2_000)));
    CensusSnapshot s = census.update(2 * SEC, NOW + 2, List.of(peer(1, 1_000 + 600_000, 2_000 + 4_000_000)));
    assertEquals(2.0, s.intervalSeconds());
    assertEquals(2_000_000, s.directions().download().totalBytesPerSecond(), 1e-9);
    assertEquals(300_000, s.directions().upload().totalBytesPerSecond(), 1e-9);
    assertEquals(s.directions().download(), s.direction(Direction.DOWNLOAD));
    assertEquals(s.directions().upload(), s.direction(Direction.UPLOAD));
  }

  @Test
  void handshakeIsRecentBelowTheWindowOnlyAndNeverMeansNotRecent() {
    CensusSnapshot s = census.update(0, NOW, List.of(
        peer(1, 0, 0, NOW - 179),
        peer(2, 0, 0, NOW - 180),
        peer(3, 0, 0, 0),
        peer(4, 0, 0, NOW + 30))); // clock stepped back: the handshake looks future, still live
    assertEquals(4, s.tunnels());
    assertEquals(2, s.handshakeRecent());
  }

  @Test
  void handshakeWindowIsAParameter() {
    TunnelCensus strict = new TunnelCensus(new CensusConfig(Duration.ofSeconds(60), 1024, Duration.ofSeconds(10), 10));
    CensusSnapshot s = strict.update(0, NOW, List.of(peer(1, 0, 0, NOW - 59), peer(2, 0, 0, NOW - 61)));
    assertEquals(1, s.handshakeRecent());
  }

  @Test
  void aUserMovingDataIsActiveAndKeepaliveChatterIsNot() {
    long t = 0;
    long userTx = 0;
    long idleTx = 0;
    CensusSnapshot s = null;
    for (int i = 0; i <= 5; i++, t += SEC) {
      s = census.update(t, NOW, List.of(peer(1, 0, userTx), peer(2, 0, idleTx)));
      userTx += 20_000; // 20 kB/s
      idleTx += i % 2 == 0 ? 300 : 0; // a handshake's worth every other second: far more than real idle noise
    }
    assertEquals(1, s.active());
    assertTrue(s.topTalkers().get(0).active());
    assertFalse(s.topTalkers().get(1).active());
  }

  @Test
  void aUserWhoStopsDropsOutAfterTheWindowNotAtOnce() {
    long tx = 0;
    long t = 0;
    for (int i = 0; i < 30; i++, t += SEC, tx += 100_000) {
      census.update(t, NOW, List.of(peer(1, 0, tx)));
    }
    CensusSnapshot afterFive = null;
    CensusSnapshot afterMinute = null;
    for (int i = 1; i <= 60; i++, t += SEC) {
      CensusSnapshot s = census.update(t, NOW, List.of(peer(1, 0, tx)));
      if (i == 5) {
        afterFive = s;
      }
      afterMinute = s;
    }
    assertEquals(1, afterFive.active(), "a five-second pause still counts as an active user");
    assertEquals(0, afterFive.directions().download().totalBytesPerSecond());
    assertEquals(0, afterMinute.active(), "a minute of silence does not");
  }

  @Test
  void counterResetDropsThatIntervalInsteadOfGoingNegative() {
    census.update(0, NOW, List.of(peer(1, 5_000_000, 9_000_000), peer(2, 0, 0)));
    CensusSnapshot reset = census.update(SEC, NOW, List.of(peer(1, 1_000, 2_000), peer(2, 0, 10_000)));
    assertEquals(1, reset.counterResets());
    assertEquals(10_000, reset.directions().download().totalBytesPerSecond(), 1e-9);
    assertEquals(0, reset.directions().upload().totalBytesPerSecond(), 1e-9);
    CensusSnapshot next = census.update(2 * SEC, NOW, List.of(peer(1, 3_000, 7_000), peer(2, 0, 10_000)));
    assertEquals(0, next.counterResets());
    assertEquals(5_000, next.directions().download().totalBytesPerSecond(), 1e-9);
    assertEquals(2_000, next.directions().upload().totalBytesPerSecond(), 1e-9);
  }

  @Test
  void peersComeAndGoWithoutRateSpikes() {
    census.update(0, NOW, List.of(peer(1, 0, 0), peer(2, 0, 0)));
    CensusSnapshot gone = census.update(SEC, NOW, List.of(peer(1, 0, 1_000)));
    assertEquals(1, gone.tunnels());
    assertEquals(1, gone.disappeared());
    // Peer 2 was forgotten, so it returns with large counters (it was re-added with history elsewhere): first sight, no rate.
    CensusSnapshot back = census.update(2 * SEC, NOW, List.of(peer(1, 0, 2_000), peer(2, 9_000_000, 9_000_000)));
    assertEquals(1, back.appeared());
    assertEquals(1_000, back.directions().download().totalBytesPerSecond(), 1e-9);
    assertEquals(0, back.directions().upload().totalBytesPerSecond(), 1e-9);
  }

  @Test
  void histogramPlacesActiveTunnelsInFixedBucketsInclusiveOfTheBound() {
    // Download rates 1 MB/s exactly, 3 MB/s, 2 GB/s; upload 0 for all.
    long[] perSecond = {1_000_000, 3_000_000, 2_000_000_000};
    List<TunnelPeer> first = new ArrayList<>();
    List<TunnelPeer> second = new ArrayList<>();
    for (int i = 0; i < perSecond.length; i++) {
      first.add(peer(i, 0, 0));
      second.add(peer(i, 0, perSecond[i]));
    }
    census.update(0, NOW, first);
    CensusSnapshot s = census.update(SEC, NOW, second);
    RateHistogram h = s.directions().download().histogram();
    assertEquals(3, count(h));
    assertEquals(s.active(), count(h));
    assertEquals(2_004_000_000, h.sum(), 1e-3);
    int le1m = indexOf(h, 1e6);
    assertEquals(1, h.countInBucket(le1m), "exactly 1e6 is in le=1e6");
    assertEquals(1, h.countInBucket(indexOf(h, 5e6)));
    assertEquals(1, h.countInBucket(h.bucketCount() - 1), "2 GB/s is beyond 1e9: +Inf");
    assertEquals(RateHistogram.upperBounds().length + 1, h.bucketCount(), "a last bucket beyond every bound: +Inf");
    assertEquals(3, cumulative(h, h.bucketCount() - 1));
    assertEquals(1, cumulative(h, le1m));
    // Upload of the same active tunnels: all in the lowest bucket.
    assertEquals(3, s.directions().upload().histogram().countInBucket(0));
  }

  @Test
  void bucketsAreTheDocumentedLogSpacedOnes() {
    double[] b = RateHistogram.upperBounds();
    assertEquals(19, b.length);
    assertEquals(1e3, b[0]);
    assertEquals(1e9, b[b.length - 1]);
    for (int i = 1; i < b.length; i++) {
      assertTrue(b[i] > b[i - 1]);
    }
  }

  @Test
  void hottestTunnelAndItsShareOfTheTotal() {
    census.update(0, NOW, List.of(peer(1, 0, 0), peer(2, 0, 0), peer(3, 0, 0)));
    CensusSnapshot s = census.update(SEC, NOW,
        List.of(peer(1, 100, 1_000_000), peer(2, 300, 1_000_000), peer(3, 100, 2_000_000)));
    assertEquals(2_000_000, s.directions().download().hottestBytesPerSecond(), 1e-9);
    assertEquals(0.5, s.directions().download().hottestShare(), 1e-12);
    assertEquals(300, s.directions().upload().hottestBytesPerSecond(), 1e-9);
    assertEquals(0.6, s.directions().upload().hottestShare(), 1e-12);
  }

  @Test
  void nothingMovingMeansZeroShareNotNaN() {
    census.update(0, NOW, List.of(peer(1, 0, 0)));
    CensusSnapshot s = census.update(SEC, NOW, List.of(peer(1, 0, 0)));
    assertEquals(0, s.directions().download().hottestShare());
    assertEquals(0, s.directions().download().activeMeanBytesPerSecond());
  }

  @Test
  void meanPerActiveUserIgnoresIdleTunnels() {
    List<TunnelPeer> zero = new ArrayList<>();
    List<TunnelPeer> moved = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      zero.add(peer(i, 0, 0));
      // Two users at 600 kB/s and 200 kB/s down, 60 kB/s and 20 kB/s up; eight idle tunnels.
      moved.add(i == 0 ? peer(i, 60_000, 600_000) : i == 1 ? peer(i, 20_000, 200_000) : peer(i, 0, 0));
    }
    census.update(0, NOW, zero);
    CensusSnapshot s = census.update(SEC, NOW, moved);
    assertEquals(10, s.tunnels());
    assertEquals(2, s.active());
    assertEquals(400_000, s.directions().download().activeMeanBytesPerSecond(), 1e-9);
    assertEquals(40_000, s.directions().upload().activeMeanBytesPerSecond(), 1e-9);
  }

  @Test
  void topTalkersAreTheFastestFirstWithShortKeysOnly() {
    TunnelCensus top2 = new TunnelCensus(new CensusConfig(Duration.ofSeconds(180), 1024, Duration.ofSeconds(10), 2));
    List<TunnelPeer> zero = new ArrayList<>();
    List<TunnelPeer> moved = new ArrayList<>();
    long[] rates = {5_000, 0, 80_000, 20_000, 80_000};
    for (int i = 0; i < rates.length; i++) {
      zero.add(peer(i, 0, 0));
      moved.add(peer(i, rates[i] / 10, rates[i]));
    }
    top2.update(0, NOW, zero);
    CensusSnapshot s = top2.update(SEC, NOW + 1, moved);
    List<Talker> t = s.topTalkers();
    assertEquals(2, t.size());
    // Tie at 88 kB/s: the earlier peer (2) first.
    assertEquals(peer(2, 0, 0).abbreviatedKey(), t.get(0).key());
    assertEquals(peer(4, 0, 0).abbreviatedKey(), t.get(1).key());
    assertEquals(80_000, t.get(0).downloadBytesPerSecond(), 1e-9);
    assertEquals(8_000, t.get(0).uploadBytesPerSecond(), 1e-9);
    assertEquals("198.51.100.2:51820", t.get(0).endpoint());
    assertEquals(6, t.get(0).handshakeAgeSeconds());
    assertFalse(s.toString().contains(key(2)), "a full public key leaked into the snapshot");
    assertThrows(UnsupportedOperationException.class, () -> s.topTalkers().add(t.get(0)));
  }

  @Test
  void topTalkerWithoutHandshakeOrEndpoint() {
    census.update(0, NOW, List.of(peer(1, 0, 0, 0)));
    Talker t = census.update(SEC, NOW, List.of(peer(1, 0, 5_000, 0))).topTalkers().get(0);
    assertEquals(-1, t.handshakeAgeSeconds());
    assertNull(t.endpoint());
  }

  @Test
  void anEarlierSnapshotDoesNotChangeWhenTheCensusMovesOn() {
    census.update(0, NOW, List.of(peer(1, 0, 0)));
    CensusSnapshot first = census.update(SEC, NOW, List.of(peer(1, 0, 50_000)));
    long before = count(first.directions().download().histogram());
    String text = first.toString();
    census.update(2 * SEC, NOW, List.of(peer(1, 0, 50_000)));
    census.update(3 * SEC, NOW, List.of());
    assertEquals(before, count(first.directions().download().histogram()));
    assertEquals(text, first.toString());
  }

  @Test
  void theSameKeyTwiceInOneReadingCountsOnce() {
    census.update(0, NOW, List.of(peer(1, 0, 0)));
    CensusSnapshot s = census.update(SEC, NOW, List.of(peer(1, 0, 1_000), peer(1, 0, 1_000)));
    assertEquals(1, s.tunnels());
    assertEquals(1_000, s.directions().download().totalBytesPerSecond(), 1e-9);
  }

  @Test
  void sampleTimeGoingBackwardsIsRefused() {
    census.update(5 * SEC, NOW, List.of());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> census.update(4 * SEC, NOW, List.of()));
    assertTrue(e.getMessage().contains("went backwards"), e.getMessage());
  }

  @Test
  void emptyInterfaceIsAnEmptyCensus() {
    census.update(0, NOW, List.of(peer(1, 0, 0)));
    CensusSnapshot s = census.update(SEC, NOW, List.of());
    assertEquals(0, s.tunnels());
    assertEquals(1, s.disappeared());
    assertEquals(0, new TunnelCensus(CensusConfig.defaults()).update(7, NOW, List.of()).tunnels());
    assertEquals(1, census.update(2 * SEC, NOW, List.of(peer(1, 0, 0))).appeared(), "forgotten: it comes back new");
  }

  @Test
  void fiveThousandPeersAddUpExactly() {
    int n = 5_000;
    List<TunnelPeer> a = new ArrayList<>(n);
    List<TunnelPeer> b = new ArrayList<>(n);
    List<TunnelPeer> c = new ArrayList<>(n);
    double expectDown = 0;
    double expectUp = 0;
    int expectActive = 0;
    for (int i = 0; i < n; i++) {
      long down = (i % 10 == 0) ? 1_000L * i : 0; // every tenth moves, up to ~5 MB/s
      long up = down / 8;
      a.add(peer(i, 1_000_000L * i, 2_000_000L * i));
      b.add(peer(i, 1_000_000L * i + up, 2_000_000L * i + down));
      expectDown += down;
      expectUp += up;
      if (down + up > 0) {
        // One second of rate r weighs (1 - e^-0.1) into the 10 s average.
        double activity = (down + up) * (1 - Math.exp(-0.1));
        expectActive += activity > 1024 ? 1 : 0;
      }
      if (i % 2 == 0) {
        c.add(peer(i, 1_000_000L * i + up, 2_000_000L * i + down)); // half the peers leave, the rest idle
      }
    }
    census.update(0, NOW, a);
    CensusSnapshot s = census.update(SEC, NOW, b);
    assertEquals(n, s.tunnels());
    assertEquals(n, s.handshakeRecent());
    assertEquals(expectDown, s.directions().download().totalBytesPerSecond(), 1e-3);
    assertEquals(expectUp, s.directions().upload().totalBytesPerSecond(), 1e-3);
    assertEquals(expectActive, s.active());
    assertEquals(expectActive, count(s.directions().download().histogram()));
    assertEquals(4_990_000, s.directions().download().hottestBytesPerSecond(), 1e-9);
    assertEquals(10, s.topTalkers().size());
    assertEquals(peer(4990, 0, 0).abbreviatedKey(), s.topTalkers().get(0).key());
    assertEquals(0, s.appeared(), "all of them remembered from the first reading");

    CensusSnapshot after = census.update(2 * SEC, NOW, c);
    assertEquals(n / 2, after.tunnels());
    assertEquals(n / 2, after.disappeared());
    assertEquals(0, after.directions().download().totalBytesPerSecond());
    assertEquals(n / 2, census.update(3 * SEC, NOW, b).appeared(), "the half that left was forgotten");
  }

  @Test
  void configRefusesNonsense() {
    assertThrows(IllegalArgumentException.class, () -> new CensusConfig(Duration.ZERO, 1024, Duration.ofSeconds(10), 10));
    assertThrows(IllegalArgumentException.class, () -> new CensusConfig(Duration.ofSeconds(180), -1, Duration.ofSeconds(10), 10));
    assertThrows(IllegalArgumentException.class, () -> new CensusConfig(Duration.ofSeconds(180), Double.NaN, Duration.ofSeconds(10), 10));
    assertThrows(IllegalArgumentException.class, () -> new CensusConfig(Duration.ofSeconds(180), 1024, Duration.ZERO, 10));
    assertThrows(IllegalArgumentException.class, () -> new CensusConfig(Duration.ofSeconds(180), 1024, Duration.ofSeconds(10), -1));
  }

  private static int indexOf(RateHistogram h, double bound) {
    double[] bounds = RateHistogram.upperBounds();
    for (int i = 0; i < bounds.length; i++) {
      if (bounds[i] == bound) {
        return i;
      }
    }
    throw new AssertionError("no bucket with bound " + bound);
  }

  /** Tunnels in buckets 0 to {@code i}: the Prometheus {@code le} view of bucket {@code i}. */
  private static long cumulative(RateHistogram h, int i) {
    long n = 0;
    for (int b = 0; b <= i; b++) {
      n += h.countInBucket(b);
    }
    return n;
  }

  private static long count(RateHistogram h) {
    return cumulative(h, h.bucketCount() - 1);
  }
}
