package dev.headroom.sample;

import dev.headroom.read.InterfaceReading;
import java.util.Arrays;

/**
 * Turns successive reads of one interface into monotonic running totals and per-second rates, and refuses
 * the reads a counter cannot honestly have produced.
 *
 * <p>Rules: the first read only sets a baseline. An interface recreated since the last read (new ifindex, or
 * seen absent in between) counts a restart; the previous read saw the old interface, so everything the new
 * one counted happened within this interval and its counters are this interval's delta. On the same
 * ifindex a byte or packet counter going back is that counter restarting (its value is new), while an error
 * or drop counter going back alone is no restart: it is re-based and counted as a discontinuity, so the
 * byte totals are never counted twice. Any delta more than the interface could carry is a discontinuity:
 * the bound is the rate passed to {@link #update} over the time since the previous read plus a grace of one
 * sampling interval, because drivers that refresh statistics on a timer can hand a read what they counted
 * up to an interval before the previous read (a packet is at least a byte, so the same bound caps packets,
 * errors and drops). A believable delta over a very short interval (a late sampler catching up) still
 * counts in the totals, but a rate above twice the bound rate is never published: it is NaN. A dropped delta is re-based, counted, never a rate (NaN) and never added to a total. A read that fails leaves
 * the rates NaN and keeps the baseline, so the next good read spans the gap and totals stay exact. Only the
 * sampling thread calls it.
 *
 * <p>Usage: {@code InterfaceTracker t = new InterfaceTracker(1.0); t.update(reading, nowNanos, 1.25e9); double bps = t.snapshot().rate(InterfaceTracker.TX_BYTES);}
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

  /** Twice the bound rate: what the bound allows at the usual pace, one interval of counting plus the grace. */
  private static final double RATE_CAP = 2;
  /** Without a line rate: 800 Gbit/s, the fastest Ethernet port there is, in bytes per second. */
  private static final double UNKNOWN_LINE_RATE_MAX = 100e9;

  private final double graceSeconds;
  private final long[] prev = new long[FIELDS];
  private final long[] totals = new long[FIELDS];
  private final double[] rates = new double[FIELDS];
  private int prevIfindex;
  private long prevNanos;
  private boolean baseline;
  /** We saw the interface absent after having seen it: a return means a fresh interface. */
  private boolean sawGone;
  private long restarts;
  private long tooFast;
  private long wentBack;
  private double lastIntervalSeconds;

  /** @param graceSeconds the sampling interval: how stale a driver's statistics may be (see class comment) */
  public InterfaceTracker(double graceSeconds) {
    this.graceSeconds = graceSeconds;
  }

  /**
   * The fastest an interface could count over a link of this line rate (bytes per second, NaN or 0 when unknown):
   * beyond it a delta is a lying or broken counter, not traffic. Tunnel bytes cross the underlay NIC, so its line
   * rate bounds both.
   */
  public static double maxBytesPerSecond(double lineRateBytesPerSecond) {
    return lineRateBytesPerSecond > 0 ? lineRateBytesPerSecond : UNKNOWN_LINE_RATE_MAX;
  }

  /**
   * Takes one reading. {@code maxBytesPerSecond} is the fastest the interface could move bytes; a delta
   * beyond it over the interval and the grace is dropped.
   *
   * @return true when this update detected a restart
   */
  public boolean update(InterfaceReading r, long nowNanos, double maxBytesPerSecond) {
    if (!r.present()) {
      if (baseline) {
        sawGone = true;
      }
      baseline = false;
      setRates(0);
      prevNanos = nowNanos;
      return false;
    }
    long[] cur = r.counters().toArray();
    if (!baseline && !sawGone) {
      setBaseline(r, cur, nowNanos);
      setRates(0);
      return false;
    }
    double dt = (nowNanos - prevNanos) / 1e9;
    boolean recreated = sawGone || r.ifindex() != prevIfindex;
    boolean restart = recreated;
    // (double -> long saturates at Long.MAX_VALUE; the comparison below is unsigned, so a jump past 2^63 is caught)
    long bound = (long) Math.max(1, maxBytesPerSecond * (Math.max(0, dt) + graceSeconds));
    for (int i = 0; i < FIELDS; i++) {
      long d;
      if (recreated) {
        d = cur[i];
      } else if (CounterDelta.wentBack(prev[i], cur[i])) {
        if (i < RX_ERRORS) {
          restart = true; // this counter restarted within the interval: all it counts now is new
          d = cur[i];
        } else {
          wentBack++;
          d = 0;
        }
      } else {
        d = cur[i] - prev[i];
      }
      if (Long.compareUnsigned(d, bound) > 0) {
        tooFast++;
        rates[i] = Double.NaN;
      } else {
        totals[i] += d;
        rates[i] = rate(d, dt, maxBytesPerSecond);
      }
    }
    if (restart) {
      restarts++;
    }
    lastIntervalSeconds = dt;
    sawGone = false;
    setBaseline(r, cur, nowNanos);
    return restart;
  }

  /** A delta per second, 0 over no time, NaN above the cap (see the class comment). */
  static double rate(long delta, double dt, double maxBytesPerSecond) {
    double r = dt > 0 ? delta / dt : 0;
    return r > RATE_CAP * maxBytesPerSecond ? Double.NaN : r;
  }

  /**
   * The interface could not be read: its rates are unknown (NaN) rather than the last ones, and the baseline
   * stays so the next good read covers the whole gap.
   */
  public void unreadable() {
    setRates(Double.NaN);
  }

  /** The next reading only sets a baseline (the name now means another interface); totals are kept. */
  public void forget() {
    baseline = false;
    sawGone = false;
    setRates(0);
  }

  private void setBaseline(InterfaceReading r, long[] cur, long nowNanos) {
    System.arraycopy(cur, 0, prev, 0, FIELDS);
    prevIfindex = r.ifindex();
    prevNanos = nowNanos;
    baseline = true;
  }

  private void setRates(double v) {
    Arrays.fill(rates, v);
    lastIntervalSeconds = 0;
  }

  public Traffic snapshot() {
    return new Traffic(totals.clone(), rates.clone(), restarts, tooFast, wentBack, lastIntervalSeconds);
  }
}
