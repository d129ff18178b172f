package dev.headroom.testing;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Collects what the daemon logs (slf4j-simple writes to whatever {@code System.err} is at the time) while
 * still passing it on, so a test can count lines.
 *
 * <p>Usage: {@code try (LogCapture log = LogCapture.start()) { ...; assertEquals(1, log.count("vanished")); }}
 */
public final class LogCapture implements AutoCloseable {
  private final PrintStream original;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  private LogCapture() {
    original = System.err;
    OutputStream tee = new OutputStream() {
      @Override
      public synchronized void write(int b) {
        captured.write(b);
        original.write(b);
      }

      @Override
      public synchronized void write(byte[] b, int off, int len) {
        captured.write(b, off, len);
        original.write(b, off, len);
      }
    };
    System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
  }

  public static LogCapture start() {
    return new LogCapture();
  }

  public synchronized String text() {
    return captured.toString(StandardCharsets.UTF_8);
  }

  /** Lines containing {@code fragment}. */
  public long count(String fragment) {
    return text().lines().filter(l -> l.contains(fragment)).count();
  }

  @Override
  public void close() {
    System.setErr(original);
  }
}
