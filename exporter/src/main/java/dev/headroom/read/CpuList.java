package dev.headroom.read;

import java.nio.file.Path;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Parses the kernel's CPU list format ({@code 0-3,5,7-8}) used by {@code devices/system/cpu/online}.
 *
 * <p>Usage: {@code SortedSet<Integer> ids = CpuList.parse("0-2,4", file);}
 */
public final class CpuList {
  private static final int MAX_CPUS = 8192;
  /** Where sysfs lists the online cores, relative to its root. */
  static final String ONLINE = "devices/system/cpu/online";

  private CpuList() {}

  public static SortedSet<Integer> parse(String content, Path file) throws ReadException {
    SortedSet<Integer> ids = new TreeSet<>();
    String s = content.strip();
    if (s.isEmpty()) {
      return java.util.Collections.unmodifiableSortedSet(ids);
    }
    for (String part : s.split(",")) {
      String[] range = part.strip().split("-", -1);
      try {
        int lo = Integer.parseInt(range[0]);
        int hi = range.length == 2 ? Integer.parseInt(range[1]) : lo;
        if (range.length > 2 || lo < 0 || hi < lo || hi >= MAX_CPUS) {
          throw ReadException.malformed(file, content, "a CPU list like 0-3,5");
        }
        for (int i = lo; i <= hi; i++) {
          ids.add(i);
        }
      } catch (NumberFormatException e) {
        throw ReadException.malformed(file, content, "a CPU list like 0-3,5");
      }
    }
    return java.util.Collections.unmodifiableSortedSet(ids);
  }

  public static SortedSet<Integer> readOnline(Path sysfsRoot) throws ReadException {
    Path f = sysfsRoot.resolve(ONLINE);
    return parse(Sysfs.read(f), f);
  }
}
