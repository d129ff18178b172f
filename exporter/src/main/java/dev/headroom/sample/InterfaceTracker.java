package dev.headroom.sample;

import dev.headroom.read.InterfaceCounters;
import dev.headroom.read.InterfaceReading;

/**
 * Turns successive reads of one interface into monotonic running totals and per-second rates.
 *
 * <p>Rules: the first read only sets a baseline. A recreated interface (new ifindex, or counters going
 * backwards) counts a restart; because the previous read saw the old interface, everything the new one
 * counted happened within this interval, so its counters are this interval's delta, with no spike. An
 * interface seen absent and then present again is handled the same way. Only the sampling thread calls it.
 *
 * <p>Usage: {@code tracker.update(reading, nowNanos); double bps = tracker.rate(InterfaceTracker.TX_BYTES);}
 */
public final class InterfaceTracker {
  public static final int RX_BYTES = 0;
  public static final int TX_BYTES = 1;
  public static final int RX_PACKETS = 2;
  public static final int TX_PACKETS = 3;
  public static final int RX_ERRORS = 4;
  public static final int TX_ERRORS = 5;
  public static final int RX_DROPPED = 6;
  public static final int TX_DROPPED = 7;
  static final int FIELDS = 8;

  private final long[] prev = new long[FIELDS];
  private final long[] totals = new long[FIELDS];
  private final double[] rates = new double[FIELDS];
  private final long[] lastDelta = new long[FIELDS];
  private int prevIfindex;
  private long prevNanos;
  private boolean baseline;
  /** We saw the interface absent after having seen it: a return means a fresh interface. */
  private boolean sawGone;
  private long restarts;
  private double lastIntervalSeconds;

  /** Returns true when this update detected a restart. */
  public boolean update(InterfaceReading r, long nowNanos) {
    if (!r.present()) {
      if (baseline) {
        sawGone = true;
      }
      baseline = false;
      clearRates();
      prevNanos = nowNanos;
      return false;
    }
    long[] cur = r.counters().toArray();
    if (!baseline && !sawGone) {
      setBaseline(r, cur, nowNanos);
      clearRates();
      return false;
    }
    double dt = (nowNanos - prevNanos) / 1e9;
    boolean restart = sawGone || r.ifindex() != prevIfindex;
    long[] d = lastDelta;
    if (!restart) {
      for (int i = 0; i < FIELDS; i++) {
        d[i] = CounterDelta.of(prev[i], cur[i]);
        if (d[i] == CounterDelta.RESTART) {
          restart = true;
          break;
        }
      }
    }
    if (restart) {
      restarts++;
      // Counters of the new interface all accrued within this interval (see class comment).
      System.arraycopy(cur, 0, d, 0, FIELDS);
      for (int i = 0; i < FIELDS; i++) {
        if (d[i] < 0) {
          d[i] = 0;
        }
      }
    }
    for (int i = 0; i < FIELDS; i++) {
      totals[i] += d[i];
      rates[i] = dt > 0 ? d[i] / dt : 0;
    }
    lastIntervalSeconds = dt;
    sawGone = false;
    setBaseline(r, cur, nowNanos);
    return restart;
  }

  private void setBaseline(InterfaceReading r, long[] cur, long nowNanos) {
    System.arraycopy(cur, 0, prev, 0, FIELDS);
    prevIfindex = r.ifindex();
    prevNanos = nowNanos;
    baseline = true;
  }

  private void clearRates() {
    java.util.Arrays.fill(rates, 0);
    java.util.Arrays.fill(lastDelta, 0);
    lastIntervalSeconds = 0;
  }

  public double rate(int field) {
    return rates[field];
  }

  public long total(int field) {
    return totals[field];
  }

  public long lastDelta(int field) {
    return lastDelta[field];
  }

  public long restarts() {
    return restarts;
  }

  /** Seconds covered by the last rates; 0 when they are not known yet. */
  public double lastIntervalSeconds() {
    return lastIntervalSeconds;
  }

  /** Immutable copy of the state for a snapshot. */
  public Traffic snapshot() {
    return new Traffic(totals.clone(), rates.clone(), restarts, lastIntervalSeconds);
  }
}
