package dev.headroom.config;

import dev.headroom.sample.SamplerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The whole configuration, from flags and the optional YAML file; defaults need no file at all.
 *
 * <p>Usage: {@code Config c = ConfigParser.parse(args).config();}
 */
public record Config(
    String listenHost,
    int listenPort,
    String telemetryPath,
    Optional<Path> webConfigFile,
    Path sysfs,
    Path procfs,
    String tunnelInterface,
    Optional<String> underlayInterface,
    OptionalDouble underlayLineRate,
    Duration sampleInterval,
    Duration peakWindow,
    List<String> datapathProcesses,
    OptionalDouble ceilingDownload,
    OptionalDouble ceilingUpload,
    Path profileFile,
    String network,
    String site,
    double cpuSaturation,
    Duration checkDuration,
    Duration profileMaxDuration,
    String profileTarget,
    Duration censusInterval,
    Path runDir,
    Duration netbirdInterval,
    String netbirdCommand,
    OptionalDouble underlayFlowCap,
    boolean underlayJumboPath,
    Path cgroupfs,
    Optional<String> profileBaseline,
    int profileSteps,
    Duration netbirdStatusInterval,
    Path stateDir,
    Duration ceilingLearnAfter,
    Duration ceilingCostAfter,
    String netbirdMetricsAddress) {

  public SamplerSettings samplerSettings() {
    return new SamplerSettings(
        sysfs, procfs, tunnelInterface, underlayInterface, underlayLineRate, sampleInterval, peakWindow,
        datapathProcesses, censusInterval, runDir, Optional.of(cgroupfs));
  }
}
