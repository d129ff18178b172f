package dev.headroom.config;

import dev.headroom.read.wg.NetbirdMetricsReader;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How headroom asks the NetBird client about its peers. Each field is one setting (flag, config-file key,
 * {@code --help} line, default); the accessors are the values the code reads.
 *
 * <p>Usage: {@code Duration every = config.netbird().interval();}
 */
public final class NetbirdSettings extends SettingsGroup {
  @Option(names = "--netbird.interval", paramLabel = "DURATION", defaultValue = "30s",
      description = "how often to ask 'netbird status --json' for P2P/relayed counts (0s: never ask NetBird at"
          + " all) (default ${DEFAULT-VALUE})") private Duration interval;
  @Option(names = "--netbird.status-interval", paramLabel = "DURATION", defaultValue = "5s",
      description = "while no tunnel interface exists, how often to ask 'netbird status --json' for the netstack"
          + " datapath's bytes (also its timeout; 0s: never) (default ${DEFAULT-VALUE})")
  private Duration statusInterval;
  @Option(names = "--netbird.command", paramLabel = "PATH", defaultValue = "netbird",
      description = "the NetBird CLI (default ${DEFAULT-VALUE})") private String command;
  @Option(names = "--netbird.metrics-address", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9191",
      description = "NetBird's local metrics endpoint (netbird up --enable-local-metrics --local-metrics-address),"
          + " read for P2P/relayed counts and latency when 'netbird status --json' does not answer (empty: never)"
          + " (default ${DEFAULT-VALUE})") private String metricsAddress;

  /** How often {@code netbird status --json} is asked for the peers' paths; zero: never ask NetBird at all. */
  public Duration interval() {
    return interval;
  }

  /** While no tunnel interface exists, how often NetBird is asked for the netstack datapath's bytes; zero: never. */
  public Duration statusInterval() {
    return statusInterval;
  }

  public String command() {
    return command;
  }

  /** NetBird's local metrics endpoint, host:port; empty: never read. */
  public String metricsAddress() {
    return metricsAddress == null ? "" : metricsAddress.strip();
  }

  void check(Checks c) throws ConfigException {
    if (!metricsAddress().isEmpty()) {
      try {
        NetbirdMetricsReader.uriForListenAddress(metricsAddress());
      } catch (IllegalArgumentException e) {
        c.require(false, "netbird.metrics-address", "is not a HOST:PORT NetBird listens on (" + e.getMessage() + ")");
      }
    }
  }
}
