package dev.headroom.sample;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What the sampler needs to know: roots, interface names, line-rate override, peak window.
 *
 * <p>Usage: {@code new Sampler(new SamplerSettings(sys, proc, "wt0", Optional.empty(), OptionalDouble.empty(), Duration.ofSeconds(1), Duration.ofMinutes(5), List.of("netbird")), cpu, System::nanoTime)}
 *
 * @param cgroupfs the cgroup root whose {@code cpu.max} caps the peer's CPU (a fixture tree in tests); empty: no
 *     quota is read and no {@code cpu_quota} source exists (tests of the other sources)
 */
public record SamplerSettings(
    Path sysfs,
    Path procfs,
    String tunnelInterface,
    Optional<String> underlayInterface,
    OptionalDouble lineRateBytesPerSecond,
    Duration interval,
    Duration peakWindow,
    List<String> datapathProcesses,
    Duration censusInterval,
    Path runDir,
    Optional<Path> cgroupfs) {

  public SamplerSettings {
    datapathProcesses = List.copyOf(datapathProcesses);
  }

  /** Without the census (tests of the per-second path, where no tunnel socket exists) or a CPU quota. */
  public SamplerSettings(Path sysfs, Path procfs, String tunnelInterface, Optional<String> underlayInterface,
      OptionalDouble lineRate, Duration interval, Duration peakWindow, List<String> datapathProcesses) {
    this(sysfs, procfs, tunnelInterface, underlayInterface, lineRate, interval, peakWindow, datapathProcesses,
        Duration.ZERO, Path.of("/var/run"), Optional.empty());
  }

  /** Samples the peak window holds at the configured interval. */
  public int peakSamples() {
    return (int) Math.max(1, peakWindow.toMillis() / Math.max(1, interval.toMillis()));
  }
}
