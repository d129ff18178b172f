package dev.headroom.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the human units of flags: Prometheus-style durations ({@code 500ms}, {@code 1s}, {@code 5m}) and
 * bit rates as tc and NIC vendors write them ({@code 200mbit}, {@code 2.5gbit}, {@code 10Gbps}).
 *
 * <p>Usage: {@code double bytesPerSecond = Units.bitRateToBytes("10gbit", "--underlay.line-rate");}
 */
public final class Units {
  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");
  private static final Pattern RATE =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(bit|kbit|mbit|gbit|tbit|bps|kbps|mbps|gbps|tbps)");

  private Units() {}

  public static Duration duration(String value, String key) throws ConfigException {
    Matcher m = DURATION.matcher(value.strip());
    if (!m.matches()) {
      throw new ConfigException(key + ": '" + value + "' is not a duration (use e.g. 500ms, 1s, 5m, 1h)");
    }
    long n = Long.parseLong(m.group(1));
    Duration d = switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
    if (d.isZero()) {
      throw new ConfigException(key + ": '" + value + "' must be longer than zero");
    }
    return d;
  }

  /** A bit rate with a unit, returned in bytes per second (metrics use bytes). */
  public static double bitRateToBytes(String value, String key) throws ConfigException {
    Matcher m = RATE.matcher(value.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new ConfigException(key + ": '" + value
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
      throw new ConfigException(key + ": '" + value + "' must be above zero");
    }
    return bits / 8;
  }
}
