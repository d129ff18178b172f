package dev.headroom.judge;

import dev.headroom.sample.CpuPerGigabyte;
import java.util.OptionalDouble;

/**
 * What one arm of a profile (through the tunnel, or the same path without it) carried and what it cost: its
 * settled rate in the driven direction, and the CPU seconds (all cores, from {@code /proc/stat} deltas) spent per
 * gigabit moved in both directions, split user / system / softirq. The tunnel's own cost is the difference
 * between the arms; what it keeps of the path is {@link #retained}.
 *
 * <p>Usage: {@code ArmCost t = ArmCost.of(rate, total, user, sys, softirq); t.retained(underlayArm)}
 *
 * @param bytesPerSecond          the arm's settled rate in its driven direction
 * @param userSecondsPerGbit      user CPU seconds per gigabit moved; NaN when nothing moved
 * @param systemSecondsPerGbit    system CPU seconds per gigabit moved; NaN when nothing moved
 * @param softirqSecondsPerGbit   softirq CPU seconds per gigabit moved; NaN when nothing moved
 */
public record ArmCost(double bytesPerSecond, double userSecondsPerGbit, double systemSecondsPerGbit,
    double softirqSecondsPerGbit) {

  /**
   * The cost over equal-length sampling intervals (the sampler's): mean CPU in cores over mean gigabits per second
   * in the same intervals, which is CPU seconds per gigabit.
   *
   * @param drivenBytesPerSecond the driven direction's mean rate (the arm's level)
   * @param totalBytesPerSecond  both directions' mean rate (the gigabits the CPU was spent on)
   * @param userCores            mean user CPU, summed over cores, in cores
   * @param systemCores          mean system CPU, in cores
   * @param softirqCores         mean softirq CPU, in cores
   */
  public static ArmCost of(double drivenBytesPerSecond, double totalBytesPerSecond, double userCores,
      double systemCores, double softirqCores) {
    // Mean cores and bytes per second are one second's CPU seconds and bytes: the sampler's cost, per gigabit.
    CpuPerGigabyte perGbit = CpuPerGigabyte.of(userCores, systemCores, softirqCores, totalBytesPerSecond).perGigabit();
    return new ArmCost(drivenBytesPerSecond, perGbit.user(), perGbit.system(), perGbit.softirq());
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
}
