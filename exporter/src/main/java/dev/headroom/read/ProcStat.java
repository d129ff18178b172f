package dev.headroom.read;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Pure parser of the per-core lines of {@code /proc/stat}, keyed by the real CPU id in each {@code cpuN}
 * label (node_exporter does the same; an offline core simply has no line).
 *
 * <p>Usage: {@code List<CpuTimes> cores = ProcStat.parseCores(Files.readString(stat), stat);}
 */
public final class ProcStat {
  /** USER_HZ: /proc/stat counts in 1/100 s on every Linux architecture. */
  static final long MS_PER_TICK = 10;

  private ProcStat() {}

  public static List<CpuTimes> parseCores(String content, Path file) throws ReadException {
    List<CpuTimes> cores = new ArrayList<>();
    for (String line : content.lines().toList()) {
      if (!line.startsWith("cpu") || line.startsWith("cpu ")) {
        continue;
      }
      String[] f = line.trim().split("\\s+");
      int id;
      try {
        id = Integer.parseInt(f[0].substring(3));
      } catch (NumberFormatException e) {
        throw ReadException.malformed(file, line, "a cpuN line");
      }
      // Kernels before 2.6.11 had fewer columns; missing trailing columns are zero, as the kernel means.
      if (f.length < 5) {
        throw ReadException.malformed(file, line, "at least user, nice, system and idle on a cpuN line");
      }
      long[] ms = new long[8];
      for (int i = 0; i < 8 && i + 1 < f.length; i++) {
        ms[i] = Sysfs.parseUnsigned(f[i + 1], file) * MS_PER_TICK;
      }
      cores.add(CpuTimes.of(id, ms));
    }
    if (cores.isEmpty()) {
      throw new ReadException(file + ": no cpuN lines");
    }
    cores.sort((a, b) -> Integer.compare(a.cpu(), b.cpu()));
    return cores;
  }
}
