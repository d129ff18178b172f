package dev.headroom.config;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import picocli.CommandLine.Option;

/**
 * What the sampler watches and how often. Each field is one setting (flag, config-file key, {@code --help} line,
 * default); the accessors are the values the code reads. Rates are bytes per second.
 *
 * <p>Usage: {@code Duration every = config.sampling().interval();}
 */
public final class SampleSettings extends SettingsGroup {
  @Option(names = "--tunnel.interface", paramLabel = "NAME", defaultValue = "wt0",
      description = "WireGuard tunnel interface (NetBird: wt0, or NB_INTERFACE_NAME) (default ${DEFAULT-VALUE})")
  private String tunnelInterface;
  @Option(names = "--underlay.interface", paramLabel = "NAME",
      description = "underlay NIC (default: the interface holding the default route)") private String underlayInterface;
  @Option(names = "--underlay.line-rate", paramLabel = "RATE",
      description = "underlay line rate, e.g. 10gbit (default: sysfs speed; clouds and veth need this)")
  private OptionalDouble underlayLineRate = OptionalDouble.empty();
  @Option(names = "--sample.interval", paramLabel = "DURATION", defaultValue = "1s",
      description = "how often to sample (default ${DEFAULT-VALUE})") private Duration interval;
  @Option(names = "--sample.peak-window", paramLabel = "DURATION", defaultValue = "5m",
      description = "sliding window of the peak rates (default ${DEFAULT-VALUE})") private Duration peakWindow;
  @Option(names = "--datapath.process", paramLabel = "NAMES", defaultValue = "netbird,wireguard-go",
      description = "process names that may run a userspace datapath (default ${DEFAULT-VALUE})")
  private String datapathProcesses;
  @Option(names = "--census.interval", paramLabel = "DURATION", defaultValue = "5s",
      description = "how often to read every tunnel's counters (0s: never) (default ${DEFAULT-VALUE})")
  private Duration censusInterval;

  public String tunnelInterface() {
    return tunnelInterface;
  }

  /** The underlay NIC as configured; empty: the interface holding the default route. */
  public Optional<String> underlayInterface() {
    return Optional.ofNullable(underlayInterface);
  }

  /** The underlay's line rate in bytes per second, when configured; empty: sysfs {@code speed}. */
  public OptionalDouble underlayLineRate() {
    return underlayLineRate;
  }

  public Duration interval() {
    return interval;
  }

  public Duration peakWindow() {
    return peakWindow;
  }

  /** Samples the peak window holds at the configured interval. */
  public int peakSamples() {
    return (int) Math.max(1, peakWindow.toMillis() / Math.max(1, interval.toMillis()));
  }

  public List<String> datapathProcesses() {
    return Arrays.stream(datapathProcesses.split(",")).map(String::strip).filter(p -> !p.isEmpty()).toList();
  }

  /** How often the tunnel census is taken; zero: never. */
  public Duration censusInterval() {
    return censusInterval;
  }

  void check(Checks c) throws ConfigException {
    c.require(isInterfaceName(tunnelInterface), "tunnel.interface", NOT_AN_INTERFACE);
    if (underlayInterface != null) {
      c.require(isInterfaceName(underlayInterface), "underlay.interface", NOT_AN_INTERFACE);
      c.require(!underlayInterface.equals(tunnelInterface), "underlay.interface",
          "is the tunnel itself; name the NIC under it");
    }
    c.require(!datapathProcesses().isEmpty(), "datapath.process", "needs at least one process name");
  }

  private static final String NOT_AN_INTERFACE = "is not a Linux interface name (1-15 characters, no '/' or spaces)";

  private static boolean isInterfaceName(String name) {
    // Linux interface names: 1..15 bytes, no '/', no whitespace, not "." or "..".
    return !name.isEmpty() && name.length() <= 15 && !name.contains("/")
        && name.chars().noneMatch(Character::isWhitespace) && !name.equals(".") && !name.equals("..");
  }
}
