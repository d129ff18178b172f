package dev.headroom.read;

import java.util.List;
import java.util.SortedSet;

/**
 * One read of every online core's times, plus which cores the kernel says are online.
 *
 * <p>Usage: {@code for (CpuTimes t : reading.cores()) ...}
 *
 * @param cores times of the online cores, ordered by CPU id
 * @param online the ids listed in {@code devices/system/cpu/online}, a set no one changes afterwards (as
 *     {@link CpuList#parse} returns): it is kept, not copied, since the same set serves every second while
 *     no core comes or goes
 */
public record CpuReading(List<CpuTimes> cores, SortedSet<Integer> online) {
  public CpuReading {
    cores = java.util.Collections.unmodifiableList(cores);
  }
}
