package dev.headroom.read;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SortedSet;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;

/**
 * Per-core times from OSHI, re-keyed to real CPU ids.
 *
 * <p>OSHI fills its per-processor array in the order the {@code cpuN} lines appear and ignores N, and fixes
 * the array's length at start; with a core offline, later cores shift down a slot. So slot k is the k-th id
 * of {@code devices/system/cpu/online}, read before and after OSHI: if the set changed in between, the read
 * is refused rather than mis-attributed.
 *
 * <p>OSHI's processor is made at the first read, on the sampling thread, not in the constructor: its first
 * start in a JVM (JNA, OSHI's classes, its processor discovery) takes about 0.2 s here, and the daemon's main
 * thread starts the HTTP server meanwhile. Each source discovers the processor anew, so a reload sees cores
 * onlined since the last one. A processor that cannot be made fails the read with the reason, and the next read
 * tries again. One thread reads at a time (the sampler's).
 *
 * <p>Usage: {@code CpuSource cpu = new OshiCpuSource(Path.of("/sys"));}
 */
public final class OshiCpuSource implements CpuSource {
  private final Path sysfs;
  private CentralProcessor processor;

  public OshiCpuSource(Path sysfsRoot) {
    this.sysfs = sysfsRoot;
  }

  @Override
  public CpuReading read() throws ReadException {
    if (processor == null) {
      try {
        processor = new SystemInfo().getHardware().getProcessor();
      } catch (RuntimeException | LinkageError e) {
        throw new ReadException("OSHI cannot start: " + e, e);
      }
    }
    SortedSet<Integer> before = CpuList.readOnline(sysfs);
    long[][] ticks = processor.getProcessorCpuLoadTicks();
    SortedSet<Integer> after = CpuList.readOnline(sysfs);
    if (!before.equals(after)) {
      throw new ReadException("cores went online or offline during the read (" + before + " -> " + after + ")");
    }
    return new CpuReading(assignSlots(ticks, after), after);
  }

  /**
   * Pure: gives OSHI's slots their real ids. Slots beyond the online count are stale or zero and dropped;
   * online cores beyond OSHI's fixed slot count (onlined after start) cannot be seen and are dropped too.
   */
  public static List<CpuTimes> assignSlots(long[][] oshiTicks, SortedSet<Integer> online) {
    List<CpuTimes> cores = new ArrayList<>(online.size());
    Iterator<Integer> ids = online.iterator();
    for (int slot = 0; slot < oshiTicks.length && ids.hasNext(); slot++) {
      long[] t = oshiTicks[slot];
      // OSHI's TickType order is USER, NICE, SYSTEM, IDLE, IOWAIT, IRQ, SOFTIRQ, STEAL, in milliseconds.
      cores.add(new CpuTimes(ids.next(), t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]));
    }
    return cores;
  }
}
