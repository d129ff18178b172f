package dev.headroom.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalDouble;
import picocli.CommandLine.Option;

/**
 * What the ceilings and the verdict are read against: configured ceilings, the profile file, how long a ceiling
 * is learned, when a core is saturated, and what the underlay path allows. Each field is one setting (flag,
 * config-file key, {@code --help} line, default); the accessors are the values the code reads. Rates are bytes
 * per second.
 *
 * <p>Usage: {@code double saturated = config.ceilings().cpuSaturation();}
 */
public final class CeilingSettings extends SettingsGroup {
  /** The loaded time the cost must rest on by default; {@code size --from-state} holds a state file's cost to it. */
  public static final String DEFAULT_COST_AFTER = "1m";

  @Option(names = "--ceiling.download", paramLabel = "RATE",
      description = "download ceiling, e.g. 12gbit (beats the reference profile)")
  private OptionalDouble download = OptionalDouble.empty();
  @Option(names = "--ceiling.upload", paramLabel = "RATE", description = "upload ceiling, e.g. 6gbit")
  private OptionalDouble upload = OptionalDouble.empty();
  @Option(names = "--profile.file", paramLabel = "FILE", defaultValue = "/var/lib/headroom/ceiling.properties",
      description = "ceiling measured by 'headroom profile' (default ${DEFAULT-VALUE})") private Path profileFile;
  @Option(names = "--ceiling.learn-after", paramLabel = "DURATION", defaultValue = "3m",
      description = "how long the peer must sustain a saturation (or beat its ceiling) before that rate becomes"
          + " its observed ceiling (default ${DEFAULT-VALUE})") private Duration learnAfter;
  @Option(names = "--ceiling.cost-after", paramLabel = "DURATION", defaultValue = DEFAULT_COST_AFTER,
      description = "how much loaded time the peer's cost per packet must be learned over before the ceiling it"
          + " gives is used (the cost ceiling source) (default ${DEFAULT-VALUE})") private Duration costAfter;
  @Option(names = "--cpu.saturation", paramLabel = "RATIO", defaultValue = "0.9",
      description = "busy ratio at which a core counts as saturated (default ${DEFAULT-VALUE})")
  private double cpuSaturation;
  @Option(names = "--underlay.flow-cap", paramLabel = "RATE",
      description = "the cloud's single-flow cap, e.g. 5gbit on AWS (a tunnel at it is single-tunnel bound)")
  private OptionalDouble flowCap = OptionalDouble.empty();
  @Option(names = "--underlay.jumbo-path", paramLabel = "BOOL", arity = "1", defaultValue = "false",
      description = "true when the path to the users carries jumbo frames end to end (allows raise_mtu) (default"
          + " ${DEFAULT-VALUE})") private boolean jumboPath;

  /** The configured download ceiling; empty: learned or reference. */
  public OptionalDouble download() {
    return download;
  }

  /** The configured upload ceiling; empty: learned or reference. */
  public OptionalDouble upload() {
    return upload;
  }

  public Path profileFile() {
    return profileFile;
  }

  public Duration learnAfter() {
    return learnAfter;
  }

  public Duration costAfter() {
    return costAfter;
  }

  public double cpuSaturation() {
    return cpuSaturation;
  }

  /** The cloud's single-flow cap; empty: none known. */
  public OptionalDouble flowCap() {
    return flowCap;
  }

  public boolean jumboPath() {
    return jumboPath;
  }

  void check(Checks c) throws ConfigException {
    c.require(cpuSaturation > 0 && cpuSaturation <= 1, "cpu.saturation", "must be a ratio in (0, 1]");
  }
}
