package dev.headroom.read;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Pure parser of {@code /proc/<pid>/stat}: the process's user and system CPU time. Works on the file's bytes,
 * with no splitting and no name string, since the datapath's stat is read every second.
 *
 * <p>Usage: {@code ProcessStat s = ProcessStat.parse(bytes, length, f); long ms = s.cpuMillis();}
 */
public record ProcessStat(long utimeMillis, long stimeMillis) {
  /** utime and stime are fields 14 and 15: the 12th and 13th after the name's closing parenthesis. */
  private static final int UTIME_AFTER_NAME = 11;

  public long cpuMillis() {
    return utimeMillis + stimeMillis;
  }

  /** Parses the first {@code len} bytes of {@code b}. */
  public static ProcessStat parse(byte[] b, int len, Path file) throws ReadException {
    // The name sits in parentheses and may itself contain spaces and ')': split at the last ')'.
    int open = -1;
    int close = -1;
    for (int i = 0; i < len; i++) {
      if (b[i] == '(' && open < 0) {
        open = i;
      } else if (b[i] == ')') {
        close = i;
      }
    }
    if (open < 1 || close < open) {
      throw malformed(b, len, file, "'pid (comm) state ...'");
    }
    number(b, 0, open, len, file); // the pid: a file whose first field is not one is no process's stat
    long utime = -1;
    long stime = -1;
    int field = 0;
    int i = close + 1;
    while (i < len && stime < 0) {
      while (i < len && isBlank(b[i])) {
        i++;
      }
      int start = i;
      while (i < len && !isBlank(b[i])) {
        i++;
      }
      if (start == i) {
        break;
      }
      if (field == UTIME_AFTER_NAME) {
        utime = number(b, start, i, len, file);
      } else if (field == UTIME_AFTER_NAME + 1) {
        stime = number(b, start, i, len, file);
      }
      field++;
    }
    if (stime < 0) {
      throw malformed(b, len, file, "at least 15 fields");
    }
    return new ProcessStat(utime * ProcStat.MS_PER_TICK, stime * ProcStat.MS_PER_TICK);
  }

  /** A non-negative decimal between {@code from} and {@code to}, blanks around it allowed. */
  private static long number(byte[] b, int from, int to, int len, Path file) throws ReadException {
    while (from < to && isBlank(b[from])) {
      from++;
    }
    while (to > from && isBlank(b[to - 1])) {
      to--;
    }
    if (from == to || to - from > 18) {
      throw malformed(b, len, file, "numeric pid, utime and stime");
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      int d = b[i] - '0';
      if (d < 0 || d > 9) {
        throw malformed(b, len, file, "numeric pid, utime and stime");
      }
      v = v * 10 + d;
    }
    return v;
  }

  private static boolean isBlank(byte c) {
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
  }

  private static ReadException malformed(byte[] b, int len, Path file, String expected) {
    return ReadException.malformed(file, new String(b, 0, len, StandardCharsets.UTF_8), expected);
  }
}
