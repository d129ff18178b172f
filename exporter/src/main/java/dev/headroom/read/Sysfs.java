package dev.headroom.read;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Pure parse functions for the one-value files of sysfs and procfs, plus small read helpers.
 *
 * <p>Usage: {@code long bytes = Sysfs.parseUnsigned(Files.readString(f), f);}
 */
public final class Sysfs {
  private Sysfs() {}

  /**
   * Parses a kernel counter: an unsigned decimal up to 2^64-1, returned as the same 64 bits in a long.
   * Compare with {@link Long#compareUnsigned}; deltas of two such values are right modulo 2^64.
   */
  public static long parseUnsigned(String content, Path file) throws ReadException {
    String s = content.strip();
    if (s.isEmpty()) {
      throw ReadException.malformed(file, content, "an unsigned integer (file is empty)");
    }
    try {
      return Long.parseUnsignedLong(s);
    } catch (NumberFormatException e) {
      throw ReadException.malformed(file, content, "an unsigned integer");
    }
  }

  /** Parses a signed decimal (ifindex, mtu, speed, which is -1 for "unknown" on some drivers). */
  public static long parseSigned(String content, Path file) throws ReadException {
    String s = content.strip();
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw ReadException.malformed(file, content, "an integer");
    }
  }

  /** Reads a whole small file, or empty when it does not exist. */
  public static Optional<String> readOptional(Path file) throws IOException {
    try {
      return Optional.of(Files.readString(file, StandardCharsets.US_ASCII));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /** Reads a whole small file that must exist. */
  public static String read(Path file) throws ReadException {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      throw new ReadException(file + ": missing");
    } catch (IOException e) {
      throw new ReadException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Reads a NIC's {@code speed} in Mbit/s. Virtual and many cloud NICs fail the read with EINVAL or
   * report -1 or 0: all of those mean "unknown", never an error.
   */
  public static OptionalLong readSpeedMbps(Path file) {
    try {
      Optional<String> s = readOptional(file);
      if (s.isEmpty()) {
        return OptionalLong.empty();
      }
      long v = parseSigned(s.get(), file);
      return v > 0 ? OptionalLong.of(v) : OptionalLong.empty();
    } catch (IOException e) {
      return OptionalLong.empty();
    }
  }
}
