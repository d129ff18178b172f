package dev.headroom.sample;

/**
 * CPU seconds (all cores) spent per 10^9 tunnel bytes (both directions) over the last interval.
 *
 * <p>Usage: {@code if (sample.cpuPerGigabyte() != null) show(sample.cpuPerGigabyte().system());}
 */
public record CpuPerGigabyte(double user, double system, double softirq) {
  /**
   * The one place CPU cost per byte moved is computed: the sampler gives one interval's CPU seconds and the
   * bytes moved in it, a profile's arm its mean cores and mean bytes per second (the CPU seconds and bytes of
   * one second). Each kind is NaN when nothing moved or its CPU is unknown, never infinite.
   *
   * <p>Usage: {@code CpuPerGigabyte c = CpuPerGigabyte.of(0.85, 0.2, 0.5, 1e9); // 0.85 s user per GB}
   */
  public static CpuPerGigabyte of(double userSeconds, double systemSeconds, double softirqSeconds, double bytes) {
    return new CpuPerGigabyte(per(userSeconds, bytes), per(systemSeconds, bytes), per(softirqSeconds, bytes));
  }

  /** The same cost per gigabit, as a link's rate is given: a gigabyte is 8 gigabits. */
  public CpuPerGigabyte perGigabit() {
    return new CpuPerGigabyte(user / 8, system / 8, softirq / 8);
  }

  private static double per(double cpuSeconds, double bytes) {
    return bytes > 0 && !Double.isNaN(cpuSeconds) ? cpuSeconds / (bytes / 1e9) : Double.NaN;
  }
}
