package dev.headroom.sample;

import dev.headroom.read.CpuTimes;

/**
 * One core in a sample: its cumulative times (absent while offline), its busy share of the last interval,
 * and that interval's mode shares ({@code user} counts user and nice, {@code system} counts system and
 * irq, so user + system + softirq + steal = busy). Shares are NaN while the core has no usable previous
 * reading (first sample, just back online, counters went backwards); busy is then 0.
 *
 * <p>Usage: {@code if (core.online() && core.busy() >= 0.9) saturated++;}
 */
public record Core(int cpu, boolean online, CpuTimes times, double busy, double user, double system,
    double softirq, double steal) {

  public static Core offline(int cpu) {
    return new Core(cpu, false, null, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
  }

  public boolean hasShares() {
    return !Double.isNaN(user);
  }

  /** Pure: an online core's shares of the interval between two readings ({@code before} may be null). */
  public static Core between(CpuTimes before, CpuTimes now) {
    long total = before == null ? 0 : now.total() - before.total();
    if (before == null || total <= 0 || now.notBusy() < before.notBusy()) {
      return new Core(now.cpu(), true, now, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    double t = total;
    return new Core(now.cpu(), true, now,
        clamp((total - (now.notBusy() - before.notBusy())) / t),
        clamp((now.user() - before.user() + now.nice() - before.nice()) / t),
        clamp((now.system() - before.system() + now.irq() - before.irq()) / t),
        clamp((now.softirq() - before.softirq()) / t),
        clamp((now.steal() - before.steal()) / t));
  }

  private static double clamp(double v) {
    return Math.min(1, Math.max(0, v));
  }
}
