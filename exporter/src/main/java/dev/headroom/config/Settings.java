package dev.headroom.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalDouble;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * Every setting of the daemon, defined once: each option is a flag ({@code --key=value} or {@code --key value}),
 * a key of the YAML file named by {@code --config.file} (the same name without dashes) and a line of
 * {@code --help}, with one default and one converter whichever way the value comes. The field order is the help
 * order. A converter's message quotes the bad value; {@link ConfigParser} names the key and where it came from,
 * and checks what one value alone cannot say.
 *
 * <p>Usage: {@code @Mixin Settings settings;} on a command that runs the sampler, parsed by {@code Settings.typed(cl)}.
 */
public final class Settings {
  @Option(names = "--web.listen-address", paramLabel = "HOST:PORT", defaultValue = ":10170",
      description = "address to serve on, host:port (a routing peer should not expose it to the internet)"
          + " (default ${DEFAULT-VALUE})") String listen;
  @Option(names = "--web.telemetry-path", paramLabel = "PATH", defaultValue = "/metrics",
      description = "path of the metrics (default ${DEFAULT-VALUE})") String telemetryPath;
  @Option(names = "--web.config.file", paramLabel = "FILE",
      description = "exporter-toolkit web config (TLS, basic auth)") Path webConfigFile;
  @Option(names = "--path.sysfs", paramLabel = "DIR", defaultValue = "/sys",
      description = "sysfs root (default ${DEFAULT-VALUE})") Path sysfs;
  @Option(names = "--path.procfs", paramLabel = "DIR", defaultValue = "/proc",
      description = "procfs root (default ${DEFAULT-VALUE})") Path procfs;
  @Option(names = "--tunnel.interface", paramLabel = "NAME", defaultValue = "wt0",
      description = "WireGuard tunnel interface (NetBird: wt0, or NB_INTERFACE_NAME) (default ${DEFAULT-VALUE})")
  String tunnelInterface;
  @Option(names = "--underlay.interface", paramLabel = "NAME",
      description = "underlay NIC (default: the interface holding the default route)") String underlayInterface;
  @Option(names = "--underlay.line-rate", paramLabel = "RATE",
      description = "underlay line rate, e.g. 10gbit (default: sysfs speed; clouds and veth need this)")
  OptionalDouble underlayLineRate = OptionalDouble.empty();
  @Option(names = "--underlay.flow-cap", paramLabel = "RATE",
      description = "the cloud's single-flow cap, e.g. 5gbit on AWS (a tunnel at it is single-tunnel bound)")
  OptionalDouble underlayFlowCap = OptionalDouble.empty();
  @Option(names = "--underlay.jumbo-path", paramLabel = "BOOL", arity = "1", defaultValue = "false",
      description = "true when the path to the users carries jumbo frames end to end (allows raise_mtu) (default"
          + " ${DEFAULT-VALUE})") boolean underlayJumboPath;
  @Option(names = "--path.cgroupfs", paramLabel = "DIR", defaultValue = "/sys/fs/cgroup",
      description = "cgroup v2 root whose cpu.max quota limits the peer's cores (default ${DEFAULT-VALUE})")
  Path cgroupfs;
  @Option(names = "--sample.interval", paramLabel = "DURATION", defaultValue = "1s",
      description = "how often to sample (default ${DEFAULT-VALUE})") Duration sampleInterval;
  @Option(names = "--sample.peak-window", paramLabel = "DURATION", defaultValue = "5m",
      description = "sliding window of the peak rates (default ${DEFAULT-VALUE})") Duration peakWindow;
  @Option(names = "--datapath.process", paramLabel = "NAMES", defaultValue = "netbird,wireguard-go",
      description = "process names that may run a userspace datapath (default ${DEFAULT-VALUE})")
  String datapathProcesses;
  @Option(names = "--ceiling.download", paramLabel = "RATE",
      description = "download ceiling, e.g. 12gbit (beats the reference profile)")
  OptionalDouble ceilingDownload = OptionalDouble.empty();
  @Option(names = "--ceiling.upload", paramLabel = "RATE", description = "upload ceiling, e.g. 6gbit")
  OptionalDouble ceilingUpload = OptionalDouble.empty();
  @Option(names = "--profile.file", paramLabel = "FILE", defaultValue = "/var/lib/headroom/ceiling.properties",
      description = "ceiling measured by 'headroom profile' (default ${DEFAULT-VALUE})") Path profileFile;
  @Option(names = "--path.state", paramLabel = "DIR", defaultValue = "/var/lib/headroom",
      description = "directory of the state file keeping observed ceilings (the unit's StateDirectory) (default"
          + " ${DEFAULT-VALUE})") Path stateDir;
  @Option(names = "--ceiling.learn-after", paramLabel = "DURATION", defaultValue = "3m",
      description = "how long the peer must sustain a saturation (or beat its ceiling) before that rate becomes"
          + " its observed ceiling (default ${DEFAULT-VALUE})") Duration ceilingLearnAfter;
  @Option(names = "--ceiling.cost-after", paramLabel = "DURATION", defaultValue = "1m",
      description = "how much loaded time the peer's cost per packet must be learned over before the ceiling it"
          + " gives is used (the cost ceiling source) (default ${DEFAULT-VALUE})") Duration ceilingCostAfter;
  @Option(names = "--labels.network", paramLabel = "NAME", defaultValue = "default",
      description = "the NetBird Network this peer routes for (on headroom_peer_info) (default ${DEFAULT-VALUE})")
  String network;
  @Option(names = "--labels.site", paramLabel = "NAME", defaultValue = "default",
      description = "the site of this peer (on headroom_peer_info) (default ${DEFAULT-VALUE})") String site;
  @Option(names = "--cpu.saturation", paramLabel = "RATIO", defaultValue = "0.9",
      description = "busy ratio at which a core counts as saturated (default ${DEFAULT-VALUE})") double cpuSaturation;
  @Option(names = "--check.duration", paramLabel = "DURATION", defaultValue = "3s",
      description = "how long 'check' samples before it reports (default ${DEFAULT-VALUE})") Duration checkDuration;
  @Option(names = "--path.rundir", paramLabel = "DIR", defaultValue = "/var/run",
      description = "run directory holding wireguard/<tunnel>.sock (userspace datapath) (default ${DEFAULT-VALUE})")
  Path runDir;
  @Option(names = "--census.interval", paramLabel = "DURATION", defaultValue = "5s",
      description = "how often to read every tunnel's counters (0s: never) (default ${DEFAULT-VALUE})")
  Duration censusInterval;
  @Option(names = "--netbird.interval", paramLabel = "DURATION", defaultValue = "30s",
      description = "how often to ask 'netbird status --json' for P2P/relayed counts (0s: never ask NetBird at"
          + " all) (default ${DEFAULT-VALUE})") Duration netbirdInterval;
  @Option(names = "--netbird.status-interval", paramLabel = "DURATION", defaultValue = "5s",
      description = "while no tunnel interface exists, how often to ask 'netbird status --json' for the netstack"
          + " datapath's bytes (also its timeout; 0s: never) (default ${DEFAULT-VALUE})")
  Duration netbirdStatusInterval;
  @Option(names = "--netbird.command", paramLabel = "PATH", defaultValue = "netbird",
      description = "the NetBird CLI (default ${DEFAULT-VALUE})") String netbirdCommand;
  @Option(names = "--netbird.metrics-address", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9191",
      description = "NetBird's local metrics endpoint (netbird up --enable-local-metrics --local-metrics-address),"
          + " read for P2P/relayed counts and latency when 'netbird status --json' does not answer (empty: never)"
          + " (default ${DEFAULT-VALUE})") String netbirdMetricsAddress;
  @Option(names = "--profile.max-duration", paramLabel = "DURATION", defaultValue = "10m",
      description = "'profile' gives up looking for a plateau after this long (default ${DEFAULT-VALUE})")
  Duration profileMaxDuration;
  @Option(names = "--profile.target", paramLabel = "HOST", defaultValue = "LAN_HOST",
      description = "'profile': address of the iperf3 server behind the peer, for the printed commands (default"
          + " ${DEFAULT-VALUE})") String profileTarget;
  @Option(names = "--profile.steps", paramLabel = "N", defaultValue = "8",
      description = "'profile': load steps (clients) offered before giving up without a plateau (at least 3)"
          + " (default ${DEFAULT-VALUE})") int profileSteps;
  @Option(names = "--profile.baseline", paramLabel = "HOST",
      description = "'profile': underlay address of the same host, to measure the path without the tunnel too")
  String profileBaseline;
  @Option(names = "--config.file", paramLabel = "FILE", description = "YAML file with any of these keys")
  Path configFile;

  /**
   * {@code cl} with the converters of the settings' types: durations in Prometheus's grammar (zero allowed here;
   * {@link ConfigParser} says where it is not), bit rates, and booleans as exactly {@code true} or {@code false}.
   */
  public static CommandLine typed(CommandLine cl) {
    cl.registerConverter(Duration.class, Quantities::durationOrZero);
    cl.registerConverter(OptionalDouble.class, v -> OptionalDouble.of(Quantities.bitRateToBytes(v)));
    cl.registerConverter(boolean.class, v -> switch (v.strip()) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new TypeConversionException("'" + v.strip() + "' is not true or false");
    });
    return cl;
  }
}
