package dev.headroom.serve;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs a failure that can repeat per request or per sample as one line per interval with a count, never a
 * line (or a stack trace) per occurrence: a client hammering a broken path must not fill the journal.
 *
 * <p>Usage: {@code RateLimitedLog log = new RateLimitedLog(LoggerFactory.getLogger(X.class), Duration.ofMinutes(1), System::nanoTime);
 * log.warn("scrape", "scrape failed", e);}
 *
 * <p>The first occurrence of a key is logged at once; later ones within the interval are only counted, and
 * the first occurrence after the interval logs its message with how many were held back. A key's very
 * first line carries the throwable's stack trace, for the bug report; later lines only its
 * {@code toString()} (class and message). At most
 * {@link #MAX_KEYS} keys are tracked; beyond that, new keys share one.
 */
public final class RateLimitedLog {
  /** Bound on distinct keys, so a key built from request data cannot grow the map without end. */
  public static final int MAX_KEYS = 64;
  private static final String OVERFLOW_KEY = "(other)";

  private static final class Window {
    long startedAt;
    long held;
  }

  private final Logger log;
  private final long intervalNanos;
  private final LongSupplier nanoClock;
  private final Map<String, Window> windows = new LinkedHashMap<>();

  /**
   * @param interval at most one line per key per interval
   * @param nanoClock {@code System::nanoTime}, replaceable in tests
   */
  public RateLimitedLog(Logger log, Duration interval, LongSupplier nanoClock) {
    this.log = log;
    this.intervalNanos = interval.toNanos();
    this.nanoClock = nanoClock;
  }

  public void warn(String key, String message, Throwable cause) {
    write(admit(key, message, cause), cause, log::warn);
  }

  public void error(String key, String message, Throwable cause) {
    write(admit(key, message, cause), cause, log::error);
  }

  private static void write(Line line, Throwable cause, BiConsumer<String, Throwable> to) {
    if (line != null) {
      to.accept(line.text(), line.first() ? cause : null);
    }
  }

  /** A line to write; {@code first} when it is the key's first, which carries the stack trace. */
  record Line(String text, boolean first) {}

  /** The line to write now, or null when this occurrence is only counted. */
  Line admit(String key, String message, Throwable cause) {
    long now = nanoClock.getAsLong();
    long held;
    synchronized (windows) {
      Window w = windows.get(key);
      if (w == null) {
        if (windows.size() >= MAX_KEYS) {
          key = OVERFLOW_KEY;
          w = windows.get(key);
        }
        if (w == null) {
          w = new Window();
          w.startedAt = now;
          windows.put(key, w);
          return new Line(format(message, cause, 0), true);
        }
      }
      if (now - w.startedAt < intervalNanos) {
        w.held++;
        return null;
      }
      held = w.held;
      w.startedAt = now;
      w.held = 0;
    }
    return new Line(format(message, cause, held), false);
  }

  private String format(String message, Throwable cause, long held) {
    StringBuilder b = new StringBuilder(message);
    if (cause != null) {
      b.append(": ").append(cause);
    }
    if (held > 0) {
      b.append(" (and ").append(held).append(" more since the last such line)");
    }
    return b.toString();
  }
}
