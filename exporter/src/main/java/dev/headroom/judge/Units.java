package dev.headroom.judge;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Bytes per second to and from the Gbps people speak, and number formatting for reasons. */
public final class Units {
  private Units() {}

  /** Bytes per second in one Gbps (10^9 bits per second). */
  public static final double BYTES_PER_GBPS = 1e9 / 8;

  public static double gbps(double bytesPerSecond) {
    return bytesPerSecond / BYTES_PER_GBPS;
  }

  public static double bytesPerSecond(double gbps) {
    return gbps * BYTES_PER_GBPS;
  }

  /** A number with at most {@code decimals} decimals and no trailing zeros: 30, 7.5, 2.35. */
  public static String num(double value, int decimals) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return String.valueOf(value);
    }
    // Since Java 8 a zero strips to plain "0", whatever its scale or the sign of the value rounded to it.
    return BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
  }

  /** Bytes/s shown as Gbps with up to two decimals. */
  public static String gbpsText(double bytesPerSecond) {
    return num(gbps(bytesPerSecond), 2) + " Gbps";
  }

  /** A ratio shown as a whole percentage; {@code ?} when unknown (NaN), never a made-up 0 %. */
  public static String pct(double ratio) {
    if (Double.isNaN(ratio)) {
      return "?";
    }
    return Math.round(ratio * 100) + "%";
  }

  /** Seconds as people say a span: 45s, 3m12s, 2h05m. */
  public static String durationText(double seconds) {
    long s = Math.round(seconds);
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return (s / 60) + "m" + String.format(java.util.Locale.ROOT, "%02d", s % 60) + "s";
    }
    return (s / 3600) + "h" + String.format(java.util.Locale.ROOT, "%02d", (s % 3600) / 60) + "m";
  }
}
