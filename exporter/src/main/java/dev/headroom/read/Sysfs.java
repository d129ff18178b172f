package dev.headroom.read;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Pure parse functions for the one-value files of sysfs and procfs, plus small read helpers.
 *
 * <p>Usage: {@code long mtu = Sysfs.parseSigned(Sysfs.read(f), f);}
 */
public final class Sysfs {
  private Sysfs() {}

  /** Parses a signed decimal (ifindex, mtu, speed, which is -1 for "unknown" on some drivers). */
  public static long parseSigned(String content, Path file) throws ReadException {
    String s = content.strip();
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw ReadException.malformed(file, content, "an integer");
    }
  }

  /**
   * The most a one-value attribute file is read: sysfs attributes are at most a page, so anything longer
   * is not the kernel's file and must not be read whole (a 40 MB file in its place would fill the heap).
   */
  public static final int MAX_ATTRIBUTE_BYTES = 64 * 1024;

  /** Reads a whole small file, or empty when it does not exist; bounded and never blocking, as {@link #read}. */
  public static Optional<String> readOptional(Path file) throws IOException {
    try {
      return Optional.of(readBounded(file));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  /**
   * Reads a whole small file that must exist: a regular file only (a FIFO or device in its place would block the
   * sampling thread in {@code open}) and at most {@link #MAX_ATTRIBUTE_BYTES}, else an error naming the file.
   */
  public static String read(Path file) throws ReadException {
    try {
      return readBounded(file);
    } catch (IOException e) {
      throw explain(file, e);
    }
  }

  /** The read error for {@code file}: a missing file says so, an error already naming it passes through. */
  static ReadException explain(Path file, IOException e) {
    if (e instanceof ReadException r) {
      return r;
    }
    if (e instanceof NoSuchFileException) {
      return new ReadException(file + ": missing");
    }
    return new ReadException(file + ": " + e.getMessage(), e);
  }

  /**
   * Fails unless {@code file} is a regular file: sysfs and procfs attributes are, and opening anything else
   * (a FIFO waits for a writer) could stall the reader forever.
   */
  public static BasicFileAttributes requireRegularFile(Path file) throws IOException {
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
    if (!a.isRegularFile()) {
      throw new ReadException(file + ": not a regular file (refusing to open it: a FIFO or device would block)");
    }
    return a;
  }

  /** Opens {@code file} for reading once {@link #requireRegularFile} let it through. */
  static FileChannel open(Path file) throws IOException {
    requireRegularFile(file);
    return FileChannel.open(file, StandardOpenOption.READ);
  }

  private static String readBounded(Path file) throws IOException {
    BasicFileAttributes a = requireRegularFile(file);
    // sysfs says 4096 for every attribute and procfs says 0; a fixture's file has its true size. Start
    // there, so a small file costs one small buffer, and grow only up to the bound.
    int cap = (int) Math.min(MAX_ATTRIBUTE_BYTES + 1L, a.size() > 0 ? a.size() + 1 : 512);
    byte[] b = new byte[cap];
    int n = 0;
    try (InputStream in = Files.newInputStream(file)) {
      for (int r; (r = in.read(b, n, b.length - n)) >= 0; ) {
        n += r;
        if (n > MAX_ATTRIBUTE_BYTES) {
          throw new ReadException(file + ": longer than " + MAX_ATTRIBUTE_BYTES + " bytes, not a kernel attribute");
        }
        if (n == b.length) {
          b = Arrays.copyOf(b, (int) Math.min(MAX_ATTRIBUTE_BYTES + 1L, 2L * b.length));
        }
      }
    }
    return new String(b, 0, n, StandardCharsets.US_ASCII);
  }

  /**
   * Reads a NIC's {@code speed} in Mbit/s. Virtual and many cloud NICs fail the read with EINVAL or
   * report -1 or 0: all of those mean "unknown", never an error.
   */
  public static OptionalLong readSpeedMbps(Path file) {
    try {
      long v = parseSigned(read(file), file);
      return v > 0 ? OptionalLong.of(v) : OptionalLong.empty();
    } catch (ReadException e) {
      return OptionalLong.empty();
    }
  }
}
