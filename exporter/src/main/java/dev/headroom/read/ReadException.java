package dev.headroom.read;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A source could not be read or its content made no sense; the message names the file and the problem.
 *
 * <p>Usage: {@code throw ReadException.malformed(file, content, "an unsigned integer");}
 */
public final class ReadException extends IOException {
  public ReadException(String message) {
    super(message);
  }

  public ReadException(String message, Throwable cause) {
    super(message, cause);
  }

  static ReadException malformed(Path file, String content, String expected) {
    String shown = content.length() > 40 ? content.substring(0, 40) + "..." : content;
    return new ReadException(file + ": expected " + expected + ", got '" + shown.strip() + "'");
  }
}
