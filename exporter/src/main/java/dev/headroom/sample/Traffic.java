package dev.headroom.sample;

/**
 * An interface's running totals and last-interval rates, indexed by the {@link InterfaceTracker} field
 * constants. Immutable: arrays are private copies.
 *
 * <p>Usage: {@code double upload = traffic.rate(InterfaceTracker.RX_BYTES);}
 */
public final class Traffic {
  public static final Traffic NONE = new Traffic(new long[8], new double[8], 0, 0);

  private final long[] totals;
  private final double[] rates;
  private final long restarts;
  private final double intervalSeconds;

  Traffic(long[] totals, double[] rates, long restarts, double intervalSeconds) {
    this.totals = totals;
    this.rates = rates;
    this.restarts = restarts;
    this.intervalSeconds = intervalSeconds;
  }

  public long total(int field) {
    return totals[field];
  }

  public double rate(int field) {
    return rates[field];
  }

  public long restarts() {
    return restarts;
  }

  public double intervalSeconds() {
    return intervalSeconds;
  }

  /** Bytes per packet in the interval, 0 when no packet moved. */
  public double meanPacketSize(int bytesField, int packetsField) {
    double p = rates[packetsField];
    return p > 0 ? rates[bytesField] / p : 0;
  }
}
