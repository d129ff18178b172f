package dev.headroom.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Reads one-number sysfs files through a reused buffer. sysfs reports every file as 4096 bytes long, so
 * {@code Files.readString} allocates a page per counter; a peer reads sixteen counters a second. At most
 * 64 bytes are read, and only from a regular file (a FIFO in a counter's place would block {@code open}).
 * Not thread-safe: one per reading thread.
 *
 * <p>Usage: {@code long tx = counters.readUnsigned(dir.resolve("statistics/tx_bytes"));}
 */
public final class CounterFileReader {
  /** A u64 in decimal is at most 20 digits; anything longer is not a counter. */
  private final ByteBuffer buf = ByteBuffer.allocate(64);

  public long readUnsigned(Path file) throws ReadException {
    try (FileChannel ch = Sysfs.open(file)) {
      return readUnsigned(ch, file);
    } catch (IOException e) {
      throw Sysfs.explain(file, e);
    }
  }

  /**
   * Re-reads a counter through a descriptor held open, from offset 0: a sysfs attribute formats its value
   * afresh on every read at offset 0, so one open serves every sample. An interface removed since the open
   * fails here with "No such device", which the caller takes as the cue to open again.
   */
  public long readUnsigned(FileChannel ch, Path file) throws IOException {
    buf.clear();
    while (buf.hasRemaining()) {
      int n = ch.read(buf, buf.position());
      if (n <= 0) {
        break;
      }
    }
    buf.flip();
    return parse(buf, file);
  }

  /** Parses an unsigned decimal with optional surrounding whitespace, all 64 bits kept. */
  static long parse(ByteBuffer b, Path file) throws ReadException {
    int start = b.position();
    int end = b.limit();
    while (start < end && isSpace(b.get(start))) {
      start++;
    }
    while (end > start && isSpace(b.get(end - 1))) {
      end--;
    }
    if (start == end || end - start > 20) {
      throw ReadException.malformed(file, text(b), start == end ? "an unsigned integer (file is empty)" : "an unsigned integer");
    }
    long v = 0;
    for (int i = start; i < end; i++) {
      int d = b.get(i) - '0';
      if (d < 0 || d > 9) {
        throw ReadException.malformed(file, text(b), "an unsigned integer");
      }
      long next = v * 10 + d;
      // Overflow past 2^64-1: the unsigned value wrapped below what it was times ten.
      if (Long.compareUnsigned(v, Long.divideUnsigned(-1L, 10)) > 0 || Long.compareUnsigned(next, v * 10) < 0) {
        throw ReadException.malformed(file, text(b), "an unsigned 64-bit integer");
      }
      v = next;
    }
    return v;
  }

  private static boolean isSpace(byte c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
  }

  private static String text(ByteBuffer b) {
    byte[] a = new byte[b.limit()];
    b.get(0, a);
    return new String(a, java.nio.charset.StandardCharsets.US_ASCII);
  }
}
