package dev.headroom.judge;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Optional;

/**
 * Finds where throughput stops rising as load is added: the capacity. Compares two adjacent time windows (by
 * default 10 s each): when the latest window's mean is within {@code tolerance} (5 %) of the previous one's and at
 * least {@code nearPeak} (90 %) of the best window mean seen, the trace has plateaued at the mean of the two.
 *
 * <p>Window means smooth per-sample noise, so a noisy flat trace plateaus; a trace still rising by more than the
 * tolerance per window never does. A plateau is kept when load later stops (the rate falls), and is dropped when
 * the rate climbs clearly above it (the earlier flat stretch was only too little load).
 *
 * <p>Usage: {@code PlateauDetector p = PlateauDetector.defaults(); p.add(t, rate); p.plateau().ifPresent(...);}
 */
public final class PlateauDetector {
  /** Where the trace plateaued: from when, and at what mean rate. */
  public record Plateau(double sinceSeconds, double bytesPerSecond) {}

  private final double windowSeconds;
  private final double tolerance;
  private final double nearPeak;
  private final int minSamplesPerWindow;

  private final Deque<double[]> samples = new ArrayDeque<>();
  private double bestWindowMean;
  private double peak;
  private Plateau plateau;

  /**
   * @param windowSeconds       length of each compared window
   * @param tolerance           largest relative difference between the two window means that still counts as flat
   * @param nearPeak            the latest window must reach this share of the best window mean seen
   * @param minSamplesPerWindow samples each window needs before it is compared
   */
  public PlateauDetector(double windowSeconds, double tolerance, double nearPeak, int minSamplesPerWindow) {
    if (!(windowSeconds > 0) || !(tolerance > 0 && tolerance < 1) || !(nearPeak > 0 && nearPeak <= 1)
        || minSamplesPerWindow < 1) {
      throw new IllegalArgumentException("bad plateau settings: window " + windowSeconds + " s, tolerance " + tolerance
          + ", nearPeak " + nearPeak + ", minSamples " + minSamplesPerWindow);
    }
    this.windowSeconds = windowSeconds;
    this.tolerance = tolerance;
    this.nearPeak = nearPeak;
    this.minSamplesPerWindow = minSamplesPerWindow;
  }

  /** 10-second windows, 5 % tolerance, 90 % of the best window, 3 samples per window. */
  public static PlateauDetector defaults() {
    return new PlateauDetector(10, 0.05, 0.90, 3);
  }

  /** Adds a sample at a monotonic time in seconds. Returns true when the trace is (now) plateaued. */
  public boolean add(double seconds, double bytesPerSecond) {
    if (Double.isNaN(seconds) || Double.isNaN(bytesPerSecond) || bytesPerSecond < 0) {
      throw new IllegalArgumentException("bad sample: " + seconds + " s, " + bytesPerSecond + " B/s");
    }
    if (!samples.isEmpty() && seconds <= samples.peekLast()[0]) {
      throw new IllegalArgumentException("sample times must increase: " + seconds + " after "
          + samples.peekLast()[0]);
    }
    samples.addLast(new double[] {seconds, bytesPerSecond});
    while (samples.peekFirst()[0] <= seconds - 2 * windowSeconds) {
      samples.removeFirst(); // only the two compared windows are ever read
    }
    peak = Math.max(peak, bytesPerSecond);
    double[] last = window(seconds - windowSeconds, seconds);
    if (last[1] < minSamplesPerWindow) {
      return plateau != null;
    }
    bestWindowMean = Math.max(bestWindowMean, last[0]);
    if (plateau != null && last[0] > plateau.bytesPerSecond() * (1 + 2 * tolerance)) {
      plateau = null; // it was only a pause in the climb
    }
    double[] prev = window(seconds - 2 * windowSeconds, seconds - windowSeconds);
    if (prev[1] >= minSamplesPerWindow && last[0] > 0
        && Math.abs(last[0] - prev[0]) <= tolerance * Math.max(last[0], prev[0])
        && last[0] >= nearPeak * bestWindowMean) {
      double level = (last[0] * last[1] + prev[0] * prev[1]) / (last[1] + prev[1]);
      if (plateau == null || level >= plateau.bytesPerSecond()) {
        plateau = new Plateau(plateau == null ? seconds - 2 * windowSeconds : plateau.sinceSeconds(), level);
      }
    }
    return plateau != null;
  }

  /** The plateau found, or empty while the trace still rises (or is too short). */
  public Optional<Plateau> plateau() {
    return Optional.ofNullable(plateau);
  }

  /** The highest single sample. */
  public double peak() {
    return peak;
  }

  /** The best full-window mean seen: a lower bound on capacity when there is no plateau. */
  public double bestWindowMean() {
    return bestWindowMean;
  }

  /** Mean and count of samples with from < t <= to. */
  private double[] window(double from, double to) {
    double sum = 0;
    int n = 0;
    for (Iterator<double[]> it = samples.descendingIterator(); it.hasNext(); ) {
      double[] s = it.next();
      if (s[0] <= from) {
        break;
      }
      if (s[0] <= to) {
        sum += s[1];
        n++;
      }
    }
    return new double[] {n == 0 ? 0 : sum / n, n};
  }
}
