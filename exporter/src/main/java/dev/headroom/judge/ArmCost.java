package dev.headroom.judge;

import dev.headroom.sample.CpuPerGigabyte;
import java.util.List;
import java.util.OptionalDouble;

/**
 * What one arm of a profile (through the tunnel, or the same path without it) carried and what it cost: its
 * settled rate in the driven direction, and the CPU seconds (all cores, from {@code /proc/stat} deltas) spent per
 * gigabit moved in both directions, split user / system / softirq. The tunnel's own cost is the difference
 * between the arms; what it keeps of the path is {@link #retained}.
 *
 * <p>Usage: {@code ArmCost t = ArmCost.of(rates, totals, user, sys, softirq); t.retained(underlayArm)}
 *
 * @param bytesPerSecond          the arm's settled rate in its driven direction
 * @param userSecondsPerGbit      user CPU seconds per gigabit moved; NaN when nothing moved
 * @param systemSecondsPerGbit    system CPU seconds per gigabit moved; NaN when nothing moved
 * @param softirqSecondsPerGbit   softirq CPU seconds per gigabit moved; NaN when nothing moved
 */
public record ArmCost(double bytesPerSecond, double userSecondsPerGbit, double systemSecondsPerGbit,
    double softirqSecondsPerGbit) {

  /**
   * The cost over equal-length sampling intervals (the sampler's): CPU in cores per interval over gigabits per
   * second in the same intervals, which is CPU seconds per gigabit.
   *
   * @param drivenBytesPerSecond the driven direction's rate per interval (the arm's level is its mean)
   * @param totalBytesPerSecond  both directions' rate per interval (the gigabits the CPU was spent on)
   * @param userCores            user CPU per interval, summed over cores, in cores
   * @param systemCores          system CPU per interval, in cores
   * @param softirqCores         softirq CPU per interval, in cores
   */
  public static ArmCost of(List<Double> drivenBytesPerSecond, List<Double> totalBytesPerSecond, List<Double> userCores,
      List<Double> systemCores, List<Double> softirqCores) {
    // Mean cores and bytes per second are one second's CPU seconds and bytes: the sampler's cost, per gigabit.
    CpuPerGigabyte perGbit = CpuPerGigabyte.of(mean(userCores), mean(systemCores), mean(softirqCores),
        mean(totalBytesPerSecond)).perGigabit();
    return new ArmCost(mean(drivenBytesPerSecond), perGbit.user(), perGbit.system(), perGbit.softirq());
  }

  /** All CPU seconds per gigabit: user + system + softirq. */
  public double secondsPerGbit() {
    return userSecondsPerGbit + systemSecondsPerGbit + softirqSecondsPerGbit;
  }

  /** Share of the path without the tunnel that this (tunnel) arm keeps: 0.8 keeps 80 %; empty when unknown. */
  public OptionalDouble retained(ArmCost withoutTunnel) {
    return withoutTunnel.bytesPerSecond > 0 && Double.isFinite(bytesPerSecond)
        ? OptionalDouble.of(bytesPerSecond / withoutTunnel.bytesPerSecond) : OptionalDouble.empty();
  }

  private static double mean(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).filter(x -> !Double.isNaN(x)).average().orElse(Double.NaN);
  }
}
