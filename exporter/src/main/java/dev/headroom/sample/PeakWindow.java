package dev.headroom.sample;

/**
 * The highest per-interval rate over the last N samples: a ring of doubles, no allocation per sample.
 *
 * <p>Usage: {@code peaks.add(rate); double p = peaks.max();}
 */
public final class PeakWindow {
  private final double[] ring;
  private int next;
  private int size;

  public PeakWindow(int samples) {
    ring = new double[samples];
  }

  /** An unknown rate (NaN) holds the slot as zero: an interval nobody measured is no peak. */
  public void add(double rate) {
    ring[next] = Double.isNaN(rate) ? 0 : rate;
    next = (next + 1) % ring.length;
    size = Math.min(size + 1, ring.length);
  }

  public double max() {
    double m = 0;
    for (int i = 0; i < size; i++) {
      m = Math.max(m, ring[i]);
    }
    return m;
  }
}
