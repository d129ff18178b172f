package dev.headroom.read;

import java.nio.file.Path;

/**
 * Pure parser of {@code /proc/<pid>/stat}: the process name and its user and system CPU time.
 *
 * <p>Usage: {@code ProcessStat s = ProcessStat.parse(Files.readString(f), f); long ms = s.cpuMillis();}
 */
public record ProcessStat(int pid, String comm, long utimeMillis, long stimeMillis) {

  public long cpuMillis() {
    return utimeMillis + stimeMillis;
  }

  public static ProcessStat parse(String content, Path file) throws ReadException {
    // The name sits in parentheses and may itself contain spaces and ')': split at the last ')'.
    int open = content.indexOf('(');
    int close = content.lastIndexOf(')');
    if (open < 1 || close < open) {
      throw ReadException.malformed(file, content, "'pid (comm) state ...'");
    }
    String[] rest = content.substring(close + 1).trim().split("\\s+");
    if (rest.length < 13) {
      throw ReadException.malformed(file, content, "at least 15 fields");
    }
    try {
      int pid = Integer.parseInt(content.substring(0, open).trim());
      // Fields 14 and 15 (utime, stime) are rest[11] and rest[12]: rest starts at field 3.
      long utime = Long.parseLong(rest[11]) * ProcStat.MS_PER_TICK;
      long stime = Long.parseLong(rest[12]) * ProcStat.MS_PER_TICK;
      return new ProcessStat(pid, content.substring(open + 1, close), utime, stime);
    } catch (NumberFormatException e) {
      throw ReadException.malformed(file, content, "numeric pid, utime and stime");
    }
  }
}
