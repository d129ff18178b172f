package dev.headroom.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the human units of flags: Prometheus durations ({@code 500ms}, {@code 1s}, {@code 1h30m}, {@code 7d}) and
 * bit rates as tc and NIC vendors write them ({@code 200mbit}, {@code 2.5gbit}, {@code 10Gbps}).
 *
 * Bad text throws {@link IllegalArgumentException} with a message that quotes it; the caller names the key.
 *
 * <p>Usage: {@code double bytesPerSecond = Quantities.bitRateToBytes("10gbit");}
 */
public final class Quantities {
  /** Prometheus's duration grammar: units from largest to smallest, each at most once (1h30m, 500ms, 7d). */
  private static final Pattern DURATION =
      Pattern.compile("(?:(\\d+)y)?(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?(?:(\\d+)ms)?");
  private static final long[] DURATION_UNIT_MS =
      {365L * 86_400_000, 7L * 86_400_000, 86_400_000, 3_600_000, 60_000, 1_000, 1};
  private static final Pattern RATE =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(bit|kbit|mbit|gbit|tbit|bps|kbps|mbps|gbps|tbps)");

  private Quantities() {}

  /**
   * A duration in Prometheus's grammar ({@code 500ms}, {@code 1s}, {@code 1h30m}, {@code 7d}), the one grammar of
   * every flag, config key and subcommand option that takes a duration. Zero ({@code 0s}, or {@code 0} alone as
   * Prometheus allows) means "off"; {@link ConfigParser} says where a key must be longer than zero.
   */
  public static Duration durationOrZero(String value) {
    String t = value.strip();
    if (t.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = DURATION.matcher(t);
    if (t.isEmpty() || !m.matches()) {
      throw new IllegalArgumentException("'" + value + "' is not a duration (use e.g. 500ms, 1s, 5m, 1h30m, 7d)");
    }
    long ms = 0;
    for (int i = 0; i < DURATION_UNIT_MS.length; i++) {
      if (m.group(i + 1) != null) {
        try {
          ms = Math.addExact(ms, Math.multiplyExact(Long.parseLong(m.group(i + 1)), DURATION_UNIT_MS[i]));
        } catch (ArithmeticException | NumberFormatException e) {
          throw new IllegalArgumentException("'" + value + "' is too long");
        }
      }
    }
    return Duration.ofMillis(ms);
  }

  /** A bit rate with a unit, returned in bytes per second (metrics use bytes). */
  public static double bitRateToBytes(String value) {
    Matcher m = RATE.matcher(value.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + value
          + "' is not a bit rate with a unit (use e.g. 200mbit, 2.5gbit, 10gbit)");
    }
    double n = Double.parseDouble(m.group(1));
    double mult = switch (m.group(2).charAt(0)) {
      case 'k' -> 1e3;
      case 'm' -> 1e6;
      case 'g' -> 1e9;
      case 't' -> 1e12;
      default -> 1;
    };
    double bits = n * mult;
    if (!(bits > 0)) {
      throw new IllegalArgumentException("'" + value + "' must be above zero");
    }
    return bits / 8;
  }
}
