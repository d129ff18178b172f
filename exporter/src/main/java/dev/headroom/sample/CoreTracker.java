package dev.headroom.sample;

import dev.headroom.read.CpuReading;
import dev.headroom.read.CpuTimes;
import java.util.Arrays;
import java.util.List;

/**
 * Per-core busy ratios keyed by real CPU id, correct across cores going offline and back online: a core's
 * previous times are forgotten while it is offline, so its first interval back only sets a baseline.
 *
 * <p>State lives in arrays indexed by CPU id (ids are small and dense), so an update allocates only the
 * cores it returns. Only the sampling thread calls it.
 *
 * <p>Usage: {@code List<Core> cores = tracker.update(cpuReading);}
 */
public final class CoreTracker {
  /** Previous times per id, null while unknown or offline. */
  private CpuTimes[] prev = new CpuTimes[0];
  /** The last state of every id ever seen (offline ones kept as offline), null for ids never seen. */
  private Core[] last = new Core[0];
  /** Ids read in this update: marked with the update's number, so nothing is cleared between updates. */
  private long[] seenIn = new long[0];
  private long update;
  private int known;
  /** Summed deltas of the last update in ms: user+nice, system, softirq, total. */
  private long dUser;
  private long dSystem;
  private long dSoftirq;
  private long dTotal;

  public List<Core> update(CpuReading reading) {
    dUser = dSystem = dSoftirq = dTotal = 0;
    update++;
    for (CpuTimes t : reading.cores()) {
      int id = t.cpu();
      grow(id + 1);
      seenIn[id] = update;
      CpuTimes p = prev[id];
      Core core = Core.between(p, t);
      if (core.hasShares()) {
        dUser += (t.user() - p.user()) + (t.nice() - p.nice());
        dSystem += t.system() - p.system();
        dSoftirq += t.softirq() - p.softirq();
        dTotal += t.total() - p.total();
      }
      prev[id] = t;
      if (last[id] == null) {
        known++;
      }
      last[id] = core;
    }
    Core[] out = new Core[known];
    int k = 0;
    for (int id = 0; id < last.length; id++) {
      if (last[id] == null) {
        continue;
      }
      if (seenIn[id] != update || !reading.online().contains(id)) {
        prev[id] = null;
        if (last[id].online()) {
          last[id] = Core.offline(id);
        }
      }
      out[k++] = last[id];
    }
    return List.of(out);
  }

  private void grow(int ids) {
    if (ids > last.length) {
      prev = Arrays.copyOf(prev, ids);
      last = Arrays.copyOf(last, ids);
      seenIn = Arrays.copyOf(seenIn, ids);
    }
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
