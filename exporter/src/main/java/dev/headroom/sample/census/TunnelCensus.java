package dev.headroom.sample.census;

import dev.headroom.sample.PerDirection;
import dev.headroom.read.wg.Connection;
import dev.headroom.read.wg.PeerTransfer;
import dev.headroom.read.wg.TunnelPeer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Turns successive per-peer counter readings into a census of the tunnels: how many exist, how many
 * have a live session, how many are in use, and how the traffic is spread over them.
 *
 * <p>Download is what the routing peer sends to a device (WireGuard {@code tx_bytes} of that peer),
 * upload what it receives from it ({@code rx_bytes}).
 *
 * <p>State: the previous counters and the smoothed activity of every peer, keyed by public key, held only
 * in memory and never exported. A peer that disappears is forgotten at once; one whose counters go
 * backwards (removed and re-added) has that interval dropped, so no rate is ever negative or inflated.
 * Each update is O(peers) with no per-peer allocation for known peers.
 *
 * <p>Not thread-safe: one sampling thread calls {@link #update}; the snapshots it returns are immutable.
 *
 * <p>Usage: {@code CensusSnapshot s = census.update(System.nanoTime(), Instant.now().getEpochSecond(), peers);}
 */
public final class TunnelCensus {

  private final CensusConfig config;
  private final long handshakeRecentSeconds;
  private final double windowSeconds;

  private final Map<String, PeerState> peers = new HashMap<>();
  private long previousNanos;
  private boolean havePrevious;
  private long generation;

  // Reused scratch for one update: bucket counts and the top-N candidates.
  private final long[] downBuckets = new long[RateHistogram.UPPER_BOUNDS.length + 1];
  private final long[] upBuckets = new long[RateHistogram.UPPER_BOUNDS.length + 1];
  private final int[] topIndex;
  private final double[] topRate;
  private final PeerState[] topState;

  public TunnelCensus(CensusConfig config) {
    this.config = config;
    this.handshakeRecentSeconds = config.handshakeRecent().toSeconds();
    this.windowSeconds = config.activeWindow().toNanos() / 1e9;
    this.topIndex = new int[config.topN()];
    this.topRate = new double[config.topN()];
    this.topState = new PeerState[config.topN()];
  }

  /**
   * Takes one reading of all peers of the interface.
   *
   * @param monotonicNanos when the peers were read, {@link System#nanoTime()} scale; must not go backwards
   * @param nowEpochSeconds wall-clock Unix time of the reading, for handshake ages
   * @param current every peer of the interface (an empty list when it has none)
   */
  public CensusSnapshot update(long monotonicNanos, long nowEpochSeconds, List<TunnelPeer> current) {
    return update(monotonicNanos, nowEpochSeconds, current, Map.of());
  }

  /**
   * Takes one reading of all peers of the interface, naming them and their connection from NetBird's latest status.
   *
   * @param netbird NetBird's listed peers by hex key ({@link dev.headroom.read.wg.NetbirdStatus#byKey}); empty
   *     without its status, when a tunnel's connection is read off its endpoint ({@link Connection#ofEndpoint})
   */
  public CensusSnapshot update(long monotonicNanos, long nowEpochSeconds, List<TunnelPeer> current,
      Map<String, PeerTransfer> netbird) {
    if (havePrevious && monotonicNanos - previousNanos < 0) {
      throw new IllegalArgumentException("sample time went backwards: " + monotonicNanos
          + " ns after " + previousNanos + " ns");
    }
    double dt = havePrevious ? (monotonicNanos - previousNanos) / 1e9 : 0;
    boolean rates = dt > 0;
    // Weight of this interval in the activity average (exponential smoothing, time constant = window).
    double alpha = rates ? 1 - Math.exp(-dt / windowSeconds) : 0;
    generation++;

    Arrays.fill(downBuckets, 0);
    Arrays.fill(upBuckets, 0);
    int topSize = 0;

    int tunnels = 0;
    int handshakeRecent = 0;
    int active = 0;
    int appeared = 0;
    int resets = 0;
    double downTotal = 0;
    double upTotal = 0;
    double downHottest = 0;
    double upHottest = 0;
    double downActiveSum = 0;
    double upActiveSum = 0;
    int n = Connection.values().length;
    double[] downBy = new double[n];
    double[] upBy = new double[n];
    int[] activeBy = new int[n];
    Connection downHottestBy = Connection.UNKNOWN;
    Connection upHottestBy = Connection.UNKNOWN;

    for (int i = 0, size = current.size(); i < size; i++) {
      TunnelPeer p = current.get(i);
      PeerState s = peers.get(p.publicKeyHex());
      if (s == null) {
        s = new PeerState();
        peers.put(p.publicKeyHex(), s);
        s.rx = p.rxBytes();
        s.tx = p.txBytes();
        s.generation = generation;
        appeared++;
      } else if (s.generation == generation) {
        continue; // the same key twice in one reading: count it once
      } else {
        s.generation = generation;
        if (p.rxBytes() < s.rx || p.txBytes() < s.tx) {
          resets++;
          s.down = 0;
          s.up = 0;
        } else if (rates) {
          s.down = (p.txBytes() - s.tx) / dt;
          s.up = (p.rxBytes() - s.rx) / dt;
          s.activity += alpha * (s.down + s.up - s.activity);
        } else {
          s.down = 0;
          s.up = 0;
        }
        s.rx = p.rxBytes();
        s.tx = p.txBytes();
      }
      tunnels++;

      if (p.everHandshaked() && nowEpochSeconds - p.lastHandshakeEpochSeconds() < handshakeRecentSeconds) {
        handshakeRecent++; // a handshake stamped in the future (clock step) is recent too
      }

      Connection c = connection(p, netbird.get(p.publicKeyHex()));
      downTotal += s.down;
      upTotal += s.up;
      downBy[c.ordinal()] += s.down;
      upBy[c.ordinal()] += s.up;
      if (s.down > downHottest) {
        downHottest = s.down;
        downHottestBy = c;
      }
      if (s.up > upHottest) {
        upHottest = s.up;
        upHottestBy = c;
      }
      s.active = s.activity > config.activeThresholdBytesPerSecond();
      if (s.active) {
        active++;
        activeBy[c.ordinal()]++;
        downActiveSum += s.down;
        upActiveSum += s.up;
        downBuckets[RateHistogram.bucketOf(s.down)]++;
        upBuckets[RateHistogram.bucketOf(s.up)]++;
      }

      topSize = offerTop(topSize, i, s);
    }

    int disappeared = 0;
    if (peers.size() > tunnels) {
      for (Iterator<PeerState> it = peers.values().iterator(); it.hasNext(); ) {
        if (it.next().generation != generation) {
          it.remove();
          disappeared++;
        }
      }
    }

    List<Talker> top = new ArrayList<>(topSize);
    for (int k = 0; k < topSize; k++) {
      TunnelPeer p = current.get(topIndex[k]);
      PeerState s = topState[k];
      long age = p.everHandshaked() ? Math.max(0, nowEpochSeconds - p.lastHandshakeEpochSeconds()) : -1;
      PeerTransfer listed = netbird.get(p.publicKeyHex());
      top.add(new Talker(p.abbreviatedKey(), p.endpoint(), s.down, s.up, age, s.active,
          listed == null ? null : listed.name(), connection(p, listed)));
      topState[k] = null;
    }

    previousNanos = monotonicNanos;
    havePrevious = true;

    Map<Connection, Integer> activeByConnection = new EnumMap<>(Connection.class);
    for (Connection c : Connection.values()) {
      activeByConnection.put(c, activeBy[c.ordinal()]);
    }
    return new CensusSnapshot(dt, tunnels, handshakeRecent, active, appeared, disappeared, resets,
        new PerDirection<>(direction(downTotal, downHottest, downActiveSum, active, downBuckets, downBy, downHottestBy),
            direction(upTotal, upHottest, upActiveSum, active, upBuckets, upBy, upHottestBy)), top, activeByConnection);
  }

  /** NetBird's word for a tunnel it lists connected; else what its endpoint says. */
  private static Connection connection(TunnelPeer p, PeerTransfer listed) {
    return listed != null && listed.connection() != Connection.UNKNOWN ? listed.connection()
        : Connection.ofEndpoint(p.endpoint());
  }

  /** Keeps the N fastest (both directions) in descending order; ties keep the earlier peer. */
  private int offerTop(int size, int index, PeerState s) {
    int n = topRate.length;
    double rate = s.down + s.up;
    if (n == 0 || rate <= 0 || (size == n && rate <= topRate[n - 1])) {
      return size;
    }
    int pos = size < n ? size : n - 1;
    while (pos > 0 && topRate[pos - 1] < rate) {
      topRate[pos] = topRate[pos - 1];
      topIndex[pos] = topIndex[pos - 1];
      topState[pos] = topState[pos - 1];
      pos--;
    }
    topRate[pos] = rate;
    topIndex[pos] = index;
    topState[pos] = s;
    return size < n ? size + 1 : size;
  }

  private static DirectionCensus direction(double total, double hottest, double activeSum, int active,
      long[] buckets, double[] by, Connection hottestBy) {
    double hottestShare = total > 0 ? Math.min(1.0, hottest / total) : 0;
    Map<Connection, Double> byConnection = new EnumMap<>(Connection.class);
    for (Connection c : Connection.values()) {
      byConnection.put(c, by[c.ordinal()]);
    }
    return new DirectionCensus(total, hottest, hottestShare, active == 0 ? 0 : activeSum / active,
        new RateHistogram(buckets, activeSum), byConnection, hottestBy);
  }

  private static final class PeerState {
    long rx;
    long tx;
    /** Rates over the current interval, bytes per second. */
    double down;
    double up;
    /** Smoothed rate of both directions, bytes per second. */
    double activity;
    boolean active;
    long generation;
  }
}
