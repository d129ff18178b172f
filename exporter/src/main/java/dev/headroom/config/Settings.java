package dev.headroom.config;

import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * Every setting of the daemon, defined once: each option is a flag ({@code --key=value} or {@code --key value}),
 * a key of the YAML file named by {@code --config.file} (the same name without dashes) and a line of
 * {@code --help}, with one default and one converter whichever way the value comes. The field order is the help
 * order. A converter's message quotes the bad value; {@link ConfigParser} names the key and where it came from.
 *
 * <p>Usage: {@code @Mixin Settings settings;} on a command that runs the sampler.
 */
public final class Settings {
  @Option(names = "--web.listen-address", paramLabel = "HOST:PORT", defaultValue = ":10170", converter = Listen.class,
      description = "address to serve on, host:port (a routing peer should not expose it to the internet) (default ${DEFAULT-VALUE})")
  HostPort listen;
  @Option(names = "--web.telemetry-path", paramLabel = "PATH", defaultValue = "/metrics", converter = UrlPath.class,
      description = "path of the metrics (default ${DEFAULT-VALUE})")
  String telemetryPath;
  @Option(names = "--web.config.file", paramLabel = "FILE", description = "exporter-toolkit web config (TLS, basic auth)")
  Path webConfigFile;
  @Option(names = "--path.sysfs", paramLabel = "DIR", defaultValue = "/sys", description = "sysfs root (default ${DEFAULT-VALUE})")
  Path sysfs;
  @Option(names = "--path.procfs", paramLabel = "DIR", defaultValue = "/proc", description = "procfs root (default ${DEFAULT-VALUE})")
  Path procfs;
  @Option(names = "--tunnel.interface", paramLabel = "NAME", defaultValue = "wt0", converter = Interface.class,
      description = "WireGuard tunnel interface (NetBird: wt0, or NB_INTERFACE_NAME) (default ${DEFAULT-VALUE})")
  String tunnelInterface;
  @Option(names = "--underlay.interface", paramLabel = "NAME", converter = Interface.class,
      description = "underlay NIC (default: the interface holding the default route)")
  String underlayInterface;
  @Option(names = "--underlay.line-rate", paramLabel = "RATE", converter = Rate.class,
      description = "underlay line rate, e.g. 10gbit (default: sysfs speed; clouds and veth need this)")
  Double underlayLineRate;
  @Option(names = "--underlay.flow-cap", paramLabel = "RATE", converter = Rate.class,
      description = "the cloud's single-flow cap, e.g. 5gbit on AWS (a tunnel at it is single-tunnel bound)")
  Double underlayFlowCap;
  @Option(names = "--underlay.jumbo-path", paramLabel = "BOOL", arity = "1", defaultValue = "false", converter = Bool.class,
      description = "true when the path to the users carries jumbo frames end to end (allows raise_mtu) (default ${DEFAULT-VALUE})")
  boolean underlayJumboPath;
  @Option(names = "--path.cgroupfs", paramLabel = "DIR", defaultValue = "/sys/fs/cgroup",
      description = "cgroup v2 root whose cpu.max quota limits the peer's cores (default ${DEFAULT-VALUE})")
  Path cgroupfs;
  @Option(names = "--sample.interval", paramLabel = "DURATION", defaultValue = "1s", converter = Positive.class,
      description = "how often to sample (default ${DEFAULT-VALUE})")
  Duration sampleInterval;
  @Option(names = "--sample.peak-window", paramLabel = "DURATION", defaultValue = "5m", converter = Positive.class,
      description = "sliding window of the peak rates (default ${DEFAULT-VALUE})")
  Duration peakWindow;
  @Option(names = "--datapath.process", paramLabel = "NAMES", defaultValue = "netbird,wireguard-go", converter = Names.class,
      description = "process names that may run a userspace datapath (default ${DEFAULT-VALUE})")
  String datapathProcesses;
  @Option(names = "--ceiling.download", paramLabel = "RATE", converter = Rate.class,
      description = "download ceiling, e.g. 12gbit (beats the reference profile)")
  Double ceilingDownload;
  @Option(names = "--ceiling.upload", paramLabel = "RATE", converter = Rate.class, description = "upload ceiling, e.g. 6gbit")
  Double ceilingUpload;
  @Option(names = "--profile.file", paramLabel = "FILE", defaultValue = "/var/lib/headroom/ceiling.properties",
      description = "ceiling measured by 'headroom profile' (default ${DEFAULT-VALUE})")
  Path profileFile;
  @Option(names = "--path.state", paramLabel = "DIR", defaultValue = "/var/lib/headroom",
      description = "directory of the state file keeping observed ceilings (the unit's StateDirectory) (default ${DEFAULT-VALUE})")
  Path stateDir;
  @Option(names = "--ceiling.learn-after", paramLabel = "DURATION", defaultValue = "3m", converter = Positive.class,
      description = "how long the peer must sustain a saturation (or beat its ceiling) before that rate becomes its"
          + " observed ceiling (default ${DEFAULT-VALUE})")
  Duration ceilingLearnAfter;
  @Option(names = "--labels.network", paramLabel = "NAME", defaultValue = "default",
      description = "the NetBird Network this peer routes for (on headroom_peer_info) (default ${DEFAULT-VALUE})")
  String network;
  @Option(names = "--labels.site", paramLabel = "NAME", defaultValue = "default",
      description = "the site of this peer (on headroom_peer_info) (default ${DEFAULT-VALUE})")
  String site;
  @Option(names = "--cpu.saturation", paramLabel = "RATIO", defaultValue = "0.9", converter = Ratio.class,
      description = "busy ratio at which a core counts as saturated (default ${DEFAULT-VALUE})")
  double cpuSaturation;
  @Option(names = "--check.duration", paramLabel = "DURATION", defaultValue = "3s", converter = Positive.class,
      description = "how long 'check' samples before it reports (default ${DEFAULT-VALUE})")
  Duration checkDuration;
  @Option(names = "--path.rundir", paramLabel = "DIR", defaultValue = "/var/run",
      description = "run directory holding wireguard/<tunnel>.sock (userspace datapath) (default ${DEFAULT-VALUE})")
  Path runDir;
  @Option(names = "--census.interval", paramLabel = "DURATION", defaultValue = "5s", converter = OrZero.class,
      description = "how often to read every tunnel's counters (0s: never) (default ${DEFAULT-VALUE})")
  Duration censusInterval;
  @Option(names = "--netbird.interval", paramLabel = "DURATION", defaultValue = "30s", converter = OrZero.class,
      description = "how often to ask 'netbird status --json' for P2P/relayed counts (0s: never ask NetBird at all)"
          + " (default ${DEFAULT-VALUE})")
  Duration netbirdInterval;
  @Option(names = "--netbird.status-interval", paramLabel = "DURATION", defaultValue = "5s", converter = OrZero.class,
      description = "while no tunnel interface exists, how often to ask 'netbird status --json' for the netstack"
          + " datapath's bytes (also its timeout; 0s: never) (default ${DEFAULT-VALUE})")
  Duration netbirdStatusInterval;
  @Option(names = "--netbird.command", paramLabel = "PATH", defaultValue = "netbird",
      description = "the NetBird CLI (default ${DEFAULT-VALUE})")
  String netbirdCommand;
  @Option(names = "--profile.max-duration", paramLabel = "DURATION", defaultValue = "10m", converter = Positive.class,
      description = "'profile' gives up looking for a plateau after this long (default ${DEFAULT-VALUE})")
  Duration profileMaxDuration;
  @Option(names = "--profile.target", paramLabel = "HOST", defaultValue = "LAN_HOST",
      description = "'profile': address of the iperf3 server behind the peer, for the printed commands (default ${DEFAULT-VALUE})")
  String profileTarget;
  @Option(names = "--profile.steps", paramLabel = "N", defaultValue = "8", converter = Steps.class,
      description = "'profile': load steps (clients) offered before giving up without a plateau (at least 3) (default ${DEFAULT-VALUE})")
  int profileSteps;
  @Option(names = "--profile.baseline", paramLabel = "HOST",
      description = "'profile': underlay address of the same host, to measure the path without the tunnel too")
  String profileBaseline;
  @Option(names = "--config.file", paramLabel = "FILE", description = "YAML file with any of these keys")
  Path configFile;

  /** {@code --web.listen-address}: host (empty for every address) and port. */
  record HostPort(String host, int port) {}

  static final class Listen implements ITypeConverter<HostPort> {
    @Override
    public HostPort convert(String listen) {
      int colon = listen.lastIndexOf(':');
      if (colon < 0) {
        throw new TypeConversionException("'" + listen + "' needs a port, e.g. :10170 or 127.0.0.1:10170");
      }
      String host = listen.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      int port;
      try {
        port = Integer.parseInt(listen.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new TypeConversionException("'" + listen + "' has no numeric port");
      }
      if (port < 0 || port > 65535) {
        throw new TypeConversionException("port " + port + " is outside 0..65535");
      }
      return new HostPort(host, port);
    }
  }

  static final class UrlPath implements ITypeConverter<String> {
    @Override
    public String convert(String path) {
      if (!path.startsWith("/") || path.equals("/")) {
        throw new TypeConversionException("'" + path + "' must start with / and not be / itself");
      }
      return path;
    }
  }

  static final class Interface implements ITypeConverter<String> {
    @Override
    public String convert(String name) {
      // Linux interface names: 1..15 bytes, no '/', no whitespace, not "." or "..".
      if (name.isEmpty() || name.length() > 15 || name.contains("/") || name.chars().anyMatch(Character::isWhitespace)
          || name.equals(".") || name.equals("..")) {
        throw new TypeConversionException("'" + name + "' is not a Linux interface name (1-15 characters, no '/' or spaces)");
      }
      return name;
    }
  }

  static final class Rate implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      return Quantities.bitRateToBytes(value);
    }
  }

  static final class Positive implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return Quantities.duration(value);
    }
  }

  /** A duration where {@code 0s} means "off". */
  static final class OrZero implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return Quantities.durationOrZero(value);
    }
  }

  static final class Bool implements ITypeConverter<Boolean> {
    @Override
    public Boolean convert(String value) {
      String s = value.strip();
      if (s.equals("true") || s.equals("false")) {
        return Boolean.parseBoolean(s);
      }
      throw new TypeConversionException("'" + s + "' is not true or false");
    }
  }

  static final class Ratio implements ITypeConverter<Double> {
    @Override
    public Double convert(String value) {
      double r;
      try {
        r = Double.parseDouble(value);
      } catch (NumberFormatException e) {
        throw new TypeConversionException("'" + value + "' is not a number");
      }
      if (!(r > 0 && r <= 1)) {
        throw new TypeConversionException(r + " must be a ratio in (0, 1]");
      }
      return r;
    }
  }

  /** Comma-separated names, at least one. */
  static final class Names implements ITypeConverter<String> {
    @Override
    public String convert(String value) {
      if (value.replace(",", "").isBlank()) {
        throw new TypeConversionException("needs at least one process name");
      }
      return value;
    }
  }

  static final class Steps implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String s) {
      try {
        int n = Integer.parseInt(s.strip());
        if (n >= 3 && n <= 64) {
          return n;
        }
      } catch (NumberFormatException e) {
        // named below
      }
      // Three steps is the least that can show two steps adding load without a gain.
      throw new TypeConversionException("'" + s + "' must be a whole number from 3 to 64");
    }
  }
}
