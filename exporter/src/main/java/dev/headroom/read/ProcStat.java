package dev.headroom.read;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Pure parser of the per-core lines of {@code /proc/stat}, keyed by the real CPU id in each {@code cpuN}
 * label (node_exporter does the same; an offline core simply has no line). It works on the file's bytes as
 * read, with no line strings or splits: it runs every second, and per-core records are all it allocates.
 *
 * <p>Usage: {@code List<CpuTimes> cores = ProcStat.parseCores(bytes, length, stat);}
 */
public final class ProcStat {
  /** USER_HZ: /proc/stat counts in 1/100 s on every Linux architecture. */
  static final long MS_PER_TICK = 10;
  /** user nice system idle iowait irq softirq steal; guest columns after them are inside user already. */
  private static final int MODES = 8;
  /** Kernels before 2.6.11 had fewer columns; fewer than user, nice, system and idle is not a cpuN line. */
  private static final int MIN_MODES = 4;
  /** A tick count that needs more digits than this is not the kernel's (it would overflow in ms). */
  private static final int MAX_DIGITS = 17;

  private ProcStat() {}

  /** Parses the first {@code len} bytes of {@code b}; the cores come back ordered by id. */
  public static List<CpuTimes> parseCores(byte[] b, int len, Path file) throws ReadException {
    List<CpuTimes> cores = new ArrayList<>();
    long[] ms = new long[MODES];
    boolean sorted = true;
    int lineStart = 0;
    while (lineStart < len) {
      int lineEnd = lineStart;
      while (lineEnd < len && b[lineEnd] != '\n') {
        lineEnd++;
      }
      if (isCoreLine(b, lineStart, lineEnd)) {
        CpuTimes t = parseLine(b, lineStart, lineEnd, ms, file);
        if (!cores.isEmpty() && cores.get(cores.size() - 1).cpu() > t.cpu()) {
          sorted = false;
        }
        cores.add(t);
      }
      lineStart = lineEnd + 1;
    }
    if (cores.isEmpty()) {
      throw new ReadException(file + ": no cpuN lines");
    }
    if (!sorted) {
      cores.sort((x, y) -> Integer.compare(x.cpu(), y.cpu()));
    }
    return cores;
  }

  /** {@code cpu} then anything but a blank: the total line is {@code cpu } and is skipped. */
  private static boolean isCoreLine(byte[] b, int start, int end) {
    return end - start > 3 && b[start] == 'c' && b[start + 1] == 'p' && b[start + 2] == 'u' && !isBlank(b[start + 3]);
  }

  private static CpuTimes parseLine(byte[] b, int start, int end, long[] ms, Path file) throws ReadException {
    int i = start + 3;
    int id = 0;
    int digits = 0;
    for (; i < end && !isBlank(b[i]); i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9 || ++digits > 9) {
        throw malformed(b, start, end, file, "a cpuN line");
      }
      id = id * 10 + d;
    }
    java.util.Arrays.fill(ms, 0);
    int fields = 0;
    while (fields < MODES) {
      while (i < end && isBlank(b[i])) {
        i++;
      }
      if (i == end) {
        break;
      }
      long v = 0;
      digits = 0;
      for (; i < end && !isBlank(b[i]); i++) {
        int d = b[i] - '0';
        if (d < 0 || d > 9 || ++digits > MAX_DIGITS) {
          throw malformed(b, start, end, file, "tick counts on a cpuN line");
        }
        v = v * 10 + d;
      }
      ms[fields++] = v * MS_PER_TICK;
    }
    if (fields < MIN_MODES) {
      throw malformed(b, start, end, file, "at least user, nice, system and idle on a cpuN line");
    }
    return CpuTimes.of(id, ms);
  }

  private static boolean isBlank(byte c) {
    return c == ' ' || c == '\t' || c == '\r';
  }

  private static ReadException malformed(byte[] b, int start, int end, Path file, String expected) {
    return ReadException.malformed(file, new String(b, start, end - start, StandardCharsets.US_ASCII), expected);
  }
}
