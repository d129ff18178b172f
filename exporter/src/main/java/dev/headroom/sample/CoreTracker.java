package dev.headroom.sample;

import dev.headroom.read.CpuReading;
import dev.headroom.read.CpuTimes;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Per-core busy ratios keyed by real CPU id, correct across cores going offline and back online: a core's
 * previous times are forgotten while it is offline, so its first interval back only sets a baseline.
 *
 * <p>Usage: {@code List<Core> cores = tracker.update(cpuReading);}
 */
public final class CoreTracker {
  private final TreeMap<Integer, CpuTimes> prev = new TreeMap<>();
  private final TreeMap<Integer, Core> last = new TreeMap<>();
  /** Summed deltas of the last update in ms: user+nice, system, softirq, total. */
  private long dUser;
  private long dSystem;
  private long dSoftirq;
  private long dTotal;

  public List<Core> update(CpuReading reading) {
    dUser = dSystem = dSoftirq = dTotal = 0;
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    for (CpuTimes t : reading.cores()) {
      seen.add(t.cpu());
      CpuTimes p = prev.get(t.cpu());
      Core core = Core.between(p, t);
      if (core.hasShares()) {
        dUser += (t.user() - p.user()) + (t.nice() - p.nice());
        dSystem += t.system() - p.system();
        dSoftirq += t.softirq() - p.softirq();
        dTotal += t.total() - p.total();
      }
      prev.put(t.cpu(), t);
      last.put(t.cpu(), core);
    }
    for (Integer id : new ArrayList<>(last.keySet())) {
      if (!seen.contains(id) || !reading.online().contains(id)) {
        prev.remove(id);
        last.put(id, Core.offline(id));
      }
    }
    return List.copyOf(last.values());
  }

  public long deltaUserMillis() {
    return dUser;
  }

  public long deltaSystemMillis() {
    return dSystem;
  }

  public long deltaSoftirqMillis() {
    return dSoftirq;
  }

  public long deltaTotalMillis() {
    return dTotal;
  }
}
