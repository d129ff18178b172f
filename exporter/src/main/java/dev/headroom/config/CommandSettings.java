package dev.headroom.config;

import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How {@code check} and {@code profile} run. Each field is one setting (flag, config-file key, {@code --help}
 * line, default); the accessors are the values the code reads.
 *
 * <p>Usage: {@code Duration d = config.commands().checkDuration();}
 */
public final class CommandSettings extends SettingsGroup {
  @Option(names = "--check.duration", paramLabel = "DURATION", defaultValue = "3s",
      description = "how long 'check' samples before it reports (default ${DEFAULT-VALUE})")
  private Duration checkDuration;
  @Option(names = "--profile.max-duration", paramLabel = "DURATION", defaultValue = "10m",
      description = "'profile' gives up looking for a plateau after this long (default ${DEFAULT-VALUE})")
  private Duration profileMaxDuration;
  @Option(names = "--profile.target", paramLabel = "HOST", defaultValue = "LAN_HOST",
      description = "'profile': address of the iperf3 server behind the peer, for the printed commands (default"
          + " ${DEFAULT-VALUE})") private String profileTarget;
  @Option(names = "--profile.steps", paramLabel = "N", defaultValue = "8",
      description = "'profile': load steps (clients) offered before giving up without a plateau (at least 3)"
          + " (default ${DEFAULT-VALUE})") private int profileSteps;
  @Option(names = "--profile.baseline", paramLabel = "HOST",
      description = "'profile': underlay address of the same host, to measure the path without the tunnel too")
  private String profileBaseline;

  public Duration checkDuration() {
    return checkDuration;
  }

  public Duration profileMaxDuration() {
    return profileMaxDuration;
  }

  public String profileTarget() {
    return profileTarget;
  }

  public int profileSteps() {
    return profileSteps;
  }

  /** The underlay address of the iperf3 host, for the baseline arm; empty: no baseline. */
  public Optional<String> profileBaseline() {
    return Optional.ofNullable(profileBaseline).map(String::strip).filter(b -> !b.isEmpty());
  }

  void check(Checks c) throws ConfigException {
    // Three steps is the least that can show two steps adding load without a gain.
    c.require(profileSteps >= 3 && profileSteps <= 64, "profile.steps", "must be a whole number from 3 to 64");
  }
}
