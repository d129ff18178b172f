package dev.headroom.sample;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What the sampler needs to know: roots, interface names, line-rate override, peak window.
 *
 * <p>Usage: {@code new SamplerSettings(sys, proc, "wt0", Optional.empty(), OptionalDouble.empty(), Duration.ofSeconds(1), Duration.ofMinutes(5), List.of("netbird"), Duration.ofSeconds(60), Path.of("/var/run"), Optional.empty())}
 *
 * @param censusInterval how often the tunnel census is taken; zero: never (no tunnel socket to read)
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

  /** Samples the peak window holds at the configured interval. */
  public int peakSamples() {
    return (int) Math.max(1, peakWindow.toMillis() / Math.max(1, interval.toMillis()));
  }
}
