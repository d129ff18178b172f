package dev.headroom.serve;

import dev.headroom.read.CpuTimes;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Core;
import dev.headroom.sample.Sample;
import java.util.stream.Stream;

/**
 * Per-core CPU keyed by the kernel's CPU id, the busiest and saturated cores, CPU per gigabyte, and the
 * datapath (which one runs the tunnel, and its own CPU).
 *
 * <p>Usage: {@code CpuMetrics.write(families, published, 0.9);}
 */
final class CpuMetrics {
  static final Family DATAPATH = Family.gauge("headroom_datapath", "Which WireGuard datapath runs the tunnel (one series per state).");
  static final Family DATAPATH_CPU_SECONDS = Family.counter("headroom_datapath_cpu_seconds",
      "CPU time of the datapath (userspace: its process; kernel: softirq and WireGuard kernel threads).");
  static final Family DATAPATH_CORES = Family.gauge("headroom_datapath_cpu_cores", "Datapath CPU over the last interval, in cores.");
  static final Family SECONDS = Family.counter("headroom_cpu_seconds", "Per-core time by mode, keyed by the kernel's CPU id.");
  static final Family BUSY = Family.gauge("headroom_cpu_busy_ratio", "Non-idle share of the last interval per core (iowait counts as idle).");
  static final Family ONLINE = Family.gauge("headroom_cpu_online", "1 when the core is online.");
  static final Family CPUS_ONLINE = Family.gauge("headroom_cpus_online", "Online cores.");
  static final Family HOTTEST = Family.gauge("headroom_cpu_hottest_busy_ratio", "Busy ratio of the busiest core.");
  static final Family SATURATED = Family.gauge("headroom_cpus_saturated", "Cores at or above the saturation threshold.");
  static final Family PER_GIGABYTE = Family.gauge("headroom_cpu_seconds_per_gigabyte",
      "CPU seconds of all cores per 10^9 tunnel bytes (both directions) over the last interval.");

  private static final String[] DATAPATHS = Stream.of(Datapath.values()).map(Datapath::label).toArray(String[]::new);

  private CpuMetrics() {}

  static void write(Families f, Published p, double saturation) {
    Sample s = p.sample();
    f.stateSet(DATAPATH, "datapath", DATAPATHS, java.util.Set.of(s.datapath().label()));
    if (s.datapath() != Datapath.ABSENT) {
      f.counter(DATAPATH_CPU_SECONDS, s.datapathCpuSeconds());
      f.gauge(DATAPATH_CORES, s.datapathCores());
    }
    for (Core c : s.cores()) {
      String cpu = Integer.toString(c.cpu());
      if (c.online()) {
        CpuTimes t = c.times();
        for (int m = 0; m < CpuTimes.MODES.length; m++) {
          f.counter(SECONDS, t.mode(m) / 1000.0, "cpu", cpu, "mode", CpuTimes.MODES[m]);
        }
        f.gauge(BUSY, c.busy(), "cpu", cpu);
      }
      f.gauge(ONLINE, c.online() ? 1 : 0, "cpu", cpu);
    }
    if (!s.cores().isEmpty()) { // empty: the CPU could not be read, so neither count is known
      f.gauge(CPUS_ONLINE, s.onlineCores());
      f.gauge(SATURATED, s.saturatedCores(saturation));
    }
    Core hot = s.hottestCore();
    if (hot != null) {
      f.gauge(HOTTEST, hot.busy());
    }
    if (s.cpuPerGigabyte() != null) {
      f.gauge(PER_GIGABYTE, s.cpuPerGigabyte().user(), "mode", "user");
      f.gauge(PER_GIGABYTE, s.cpuPerGigabyte().system(), "mode", "system");
      f.gauge(PER_GIGABYTE, s.cpuPerGigabyte().softirq(), "mode", "softirq");
    }
  }
}
