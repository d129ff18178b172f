package dev.headroom.sample;

import dev.headroom.read.wg.PeerTransfer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns successive per-peer byte counters ({@code netbird status --json}) into one tunnel's running totals and
 * rates, judged peer by peer so that no reset of one peer is read as the whole tunnel's.
 *
 * <p>Rules, the interface's ({@link InterfaceTracker}) applied per public key: the first status only sets a
 * baseline. A key seen before whose counter went back restarted (reconnect, key re-added, a lazy connection
 * back from idle; NetBird also prints 0 for a peer not connected): what it counts now is new, so its value is the
 * delta. A key not in the previous status was added since then: all it counted is this interval's (and, back after
 * one status away with a counter below its last, it restarted: a recreated tunnel is listed without peers until
 * they are added again). A key that left the status drops out, taking nothing back from the totals. The sum over peers of one interval is bounded
 * by the rate passed to {@link #update} over the time since the previous status plus a grace of one status
 * interval; beyond it the whole interval is dropped (re-based, counted, no rate, not added to a total), so a peer
 * whose counter NetBird had not reported for a while can never make a spike. A status that could not be read
 * leaves the rates unknown (NaN) and keeps the baseline, so the next good one spans the gap. Only one thread calls
 * it.
 *
 * <p>Usage: {@code t.update(status.transfers(), nowNanos, 1.25e9); double down = t.snapshot().rate(InterfaceTracker.TX_BYTES);}
 */
public final class PeerCounterTracker {
  private final double graceSeconds;
  /** Public key -> {received, sent} at the previous status. */
  private Map<String, long[]> prev = new HashMap<>();
  private Map<String, long[]> spare = new HashMap<>();
  /**
   * Keys the last status left out, with their counters before: a tunnel recreated is listed without peers until
   * they are added again, so a key back after one status away whose counter went back restarted.
   */
  private final Map<String, long[]> gone = new HashMap<>();
  private boolean baseline;
  private long prevNanos;
  private long totalReceived;
  private long totalSent;
  private double rateReceived;
  private double rateSent;
  private double lastIntervalSeconds;
  private long restarts;
  private long tooFast;

  /** @param graceSeconds the status interval: how stale a status's counters may be */
  public PeerCounterTracker(double graceSeconds) {
    this.graceSeconds = graceSeconds;
  }

  /**
   * Takes one status's peers.
   *
   * @param nowNanos when the counters were read
   * @param maxBytesPerSecond the fastest the tunnel could move bytes in one direction
   * @return how many peers restarted their counters in this interval
   */
  public int update(List<PeerTransfer> peers, long nowNanos, double maxBytesPerSecond) {
    Map<String, long[]> cur = spare;
    cur.clear();
    long dRx = 0;
    long dTx = 0;
    int restarted = 0;
    for (int i = 0, n = peers.size(); i < n; i++) {
      PeerTransfer p = peers.get(i);
      long rx = p.receivedBytes();
      long tx = p.sentBytes();
      if (cur.containsKey(p.publicKey())) {
        continue; // a key listed twice is one WireGuard peer: count it once
      }
      long[] was = prev.get(p.publicKey());
      if (!baseline || was == null) {
        if (baseline) {
          long[] left = gone.get(p.publicKey());
          if (left != null && (CounterDelta.wentBack(left[0], rx) || CounterDelta.wentBack(left[1], tx))) {
            restarted++;
          }
          dRx += rx;
          dTx += tx;
        }
        cur.put(p.publicKey(), new long[] {rx, tx});
        continue;
      }
      if (CounterDelta.wentBack(was[0], rx) || CounterDelta.wentBack(was[1], tx)) {
        // Both counters belong to one WireGuard peer and restart together: all either counts now is new.
        restarted++;
        dRx += rx;
        dTx += tx;
      } else {
        dRx += rx - was[0];
        dTx += tx - was[1];
      }
      was[0] = rx; // the slot moves to this status's map: no allocation per known peer
      was[1] = tx;
      cur.put(p.publicKey(), was);
    }
    gone.clear();
    for (Map.Entry<String, long[]> e : prev.entrySet()) {
      if (!cur.containsKey(e.getKey())) {
        gone.put(e.getKey(), e.getValue());
      }
    }
    spare = prev;
    prev = cur;
    if (!baseline) {
      // One answer spans no interval: the rates are unknown until the next, not 0. A 0 here would read as an idle
      // tunnel for a whole status interval while the netbird process carries the load, and teach the cost model's
      // fixed (idle) CPU the datapath's own.
      baseline = true;
      prevNanos = nowNanos;
      rateReceived = Double.NaN;
      rateSent = Double.NaN;
      lastIntervalSeconds = 0;
      return 0;
    }
    double dt = (nowNanos - prevNanos) / 1e9;
    prevNanos = nowNanos;
    long bound = (long) Math.max(1, maxBytesPerSecond * (Math.max(0, dt) + graceSeconds));
    restarts += restarted;
    lastIntervalSeconds = dt;
    if (dRx < 0 || dTx < 0 || dRx > bound || dTx > bound) {
      tooFast++;
      rateReceived = Double.NaN;
      rateSent = Double.NaN;
      return restarted;
    }
    totalReceived += dRx;
    totalSent += dTx;
    rateReceived = InterfaceTracker.rate(dRx, dt, maxBytesPerSecond);
    rateSent = InterfaceTracker.rate(dTx, dt, maxBytesPerSecond);
    return restarted;
  }

  /** The status could not be read: rates unknown, not the last ones; the baseline stays. */
  public void unreadable() {
    rateReceived = Double.NaN;
    rateSent = Double.NaN;
    lastIntervalSeconds = 0;
  }

  /** The next status only sets a baseline (the tunnel left netstack mode and may come back); totals are kept. */
  public void forget() {
    baseline = false;
    prev.clear();
    gone.clear();
    rateReceived = 0;
    rateSent = 0;
    lastIntervalSeconds = 0;
  }

  /**
   * The state as the tunnel's {@link Traffic}: bytes only (download = sent, upload = received); NetBird reports
   * no packet, error or drop counters: their totals are 0, the packet rates unknown, the error and drop rates 0.
   */
  public Traffic snapshot() {
    long[] totals = new long[InterfaceTracker.FIELDS];
    double[] rates = new double[InterfaceTracker.FIELDS];
    totals[InterfaceTracker.RX_BYTES] = totalReceived;
    totals[InterfaceTracker.TX_BYTES] = totalSent;
    rates[InterfaceTracker.RX_BYTES] = rateReceived;
    rates[InterfaceTracker.TX_BYTES] = rateSent;
    rates[InterfaceTracker.RX_PACKETS] = Double.NaN;
    rates[InterfaceTracker.TX_PACKETS] = Double.NaN;
    return new Traffic(totals, rates, restarts, tooFast, 0, lastIntervalSeconds);
  }
}
