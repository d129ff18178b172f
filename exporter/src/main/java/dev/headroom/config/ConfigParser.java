package dev.headroom.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The daemon's settings: one list ({@link #SETTINGS}) from which come both the flags, in Prometheus exporter
 * style ({@code --key=value} or {@code --key value}, parsed by picocli in {@link SettingFlags}), and the keys of the optional YAML
 * file named by {@code --config.file} (the same names without dashes; nested maps are joined with dots). Flags
 * beat the file; the file beats defaults. Both go through the same conversion, so a bad value gets the same error
 * naming the key and the value whichever way it came. Unknown keys and bad values are errors.
 *
 * <p>Usage: {@code Config c = ConfigParser.parse(new String[] {"--tunnel.interface=wt1"}).config();}
 */
public final class ConfigParser {
  /** Every setting with its default and help; the order is the help order. */
  public static final Map<String, String[]> SETTINGS = new LinkedHashMap<>();

  static {
    def("web.listen-address", ":10170", "address to serve on, host:port (a routing peer should not expose it to the internet)");
    def("web.telemetry-path", "/metrics", "path of the metrics");
    def("web.config.file", "", "exporter-toolkit web config (TLS, basic auth)");
    def("path.sysfs", "/sys", "sysfs root");
    def("path.procfs", "/proc", "procfs root");
    def("tunnel.interface", "wt0", "WireGuard tunnel interface (NetBird: wt0, or NB_INTERFACE_NAME)");
    def("underlay.interface", "", "underlay NIC (default: the interface holding the default route)");
    def("underlay.line-rate", "", "underlay line rate, e.g. 10gbit (default: sysfs speed; clouds and veth need this)");
    def("underlay.flow-cap", "", "the cloud's single-flow cap, e.g. 5gbit on AWS (a tunnel at it is single-tunnel bound)");
    def("underlay.jumbo-path", "false", "true when the path to the users carries jumbo frames end to end (allows raise_mtu)");
    def("path.cgroupfs", "/sys/fs/cgroup", "cgroup v2 root whose cpu.max quota limits the peer's cores");
    def("sample.interval", "1s", "how often to sample");
    def("sample.peak-window", "5m", "sliding window of the peak rates");
    def("datapath.process", "netbird,wireguard-go", "process names that may run a userspace datapath");
    def("ceiling.download", "", "download ceiling, e.g. 12gbit (beats the reference profile)");
    def("ceiling.upload", "", "upload ceiling, e.g. 6gbit");
    def("profile.file", "/var/lib/headroom/ceiling.properties", "ceiling measured by 'headroom profile'");
    def("path.state", "/var/lib/headroom", "directory of the state file keeping observed ceilings (the unit's StateDirectory)");
    def("ceiling.learn-after", "3m", "how long the peer must sustain a saturation (or beat its ceiling) before that rate becomes its observed ceiling");
    def("labels.network", "default", "the NetBird Network this peer routes for (on headroom_peer_info)");
    def("labels.site", "default", "the site of this peer (on headroom_peer_info)");
    def("cpu.saturation", "0.9", "busy ratio at which a core counts as saturated");
    def("check.duration", "3s", "how long 'check' samples before it reports");
    def("path.rundir", "/var/run", "run directory holding wireguard/<tunnel>.sock (userspace datapath)");
    def("census.interval", "5s", "how often to read every tunnel's counters (0s: never)");
    def("netbird.interval", "30s", "how often to ask 'netbird status --json' for P2P/relayed counts (0s: never ask NetBird at all)");
    def("netbird.status-interval", "5s", "while no tunnel interface exists, how often to ask 'netbird status --json' for the"
        + " netstack datapath's bytes (also its timeout; 0s: never)");
    def("netbird.command", "netbird", "the NetBird CLI");
    def("profile.max-duration", "10m", "'profile' gives up looking for a plateau after this long");
    def("profile.target", "LAN_HOST", "'profile': address of the iperf3 server behind the peer, for the printed commands");
    def("profile.steps", "8", "'profile': load steps (clients) offered before giving up without a plateau (at least 3)");
    def("profile.baseline", "", "'profile': underlay address of the same host, to measure the path without the tunnel too");
    def("config.file", "", "YAML file with any of these keys");
  }

  private static void def(String key, String dflt, String help) {
    SETTINGS.put(key, new String[] {dflt, help});
  }

  /** The configuration plus the settings given as flags (without dashes), which a reload applies again. */
  public record Parsed(Config config, Map<String, String> flags) {}

  private ConfigParser() {}

  /** Parses a command line of setting flags only (no command word), then loads the configuration. */
  public static Parsed parse(String[] args) throws ConfigException {
    Map<String, String> flags = SettingFlags.parse(args);
    return new Parsed(load(flags), flags);
  }

  /**
   * The configuration from these flags over the YAML file named by {@code config.file} (read now, so a reload
   * sees its edits) over the defaults.
   */
  public static Config load(Map<String, String> flags) throws ConfigException {
    Map<String, String> values = new LinkedHashMap<>();
    String file = flags.get("config.file");
    if (file != null && !file.isBlank()) {
      values.putAll(readYaml(Path.of(file)));
    }
    values.putAll(flags);
    try {
      return build(values);
    } catch (ConfigException e) {
      throw new ConfigException(whereFrom(e.getMessage(), flags, file));
    }
  }

  /** Says where the bad value came from: {@code --key: ...} for a flag, {@code config file F: key: ...} else. */
  private static String whereFrom(String message, Map<String, String> flags, String file) {
    int colon = message.indexOf(':');
    String key = colon > 0 ? message.substring(0, colon) : "";
    if (flags.containsKey(key)) {
      return "--" + message;
    }
    return file != null && !file.isBlank() && SETTINGS.containsKey(key) ? "config file " + file + ": " + message
        : message;
  }

  static Map<String, String> readYaml(Path file) throws ConfigException {
    Object root;
    try (Reader r = Files.newBufferedReader(file)) {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(r);
    } catch (IOException e) {
      throw new ConfigException("config file " + file + ": cannot read: " + e.getMessage());
    } catch (YAMLException e) {
      throw new ConfigException("config file " + file + ": not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
    }
    Map<String, String> out = new LinkedHashMap<>();
    if (root == null) {
      return out;
    }
    if (!(root instanceof Map<?, ?> m)) {
      throw new ConfigException("config file " + file + ": expected a map of settings at the top level");
    }
    flatten(file, "", m, out);
    return out;
  }

  private static void flatten(Path file, String prefix, Map<?, ?> m, Map<String, String> out) throws ConfigException {
    for (Map.Entry<?, ?> e : m.entrySet()) {
      String key = prefix + e.getKey();
      if (e.getValue() instanceof Map<?, ?> inner) {
        flatten(file, key + ".", inner, out);
        continue;
      }
      if (key.equals("config.file")) {
        throw new ConfigException("config file " + file + ": 'config.file' cannot be set inside a config file");
      }
      if (!SETTINGS.containsKey(key)) {
        throw new ConfigException("config file " + file + ": unknown key '" + key + "'" + suggestion(key));
      }
      Object v = e.getValue();
      if (v instanceof List<?> list) {
        out.put(key, String.join(",", list.stream().map(String::valueOf).toList()));
      } else {
        out.put(key, v == null ? "" : String.valueOf(v));
      }
    }
  }

  /** The nearest known key, found the way a mistyped flag's is, so both get the same suggestion. */
  private static String suggestion(String key) {
    String near = SettingFlags.nearest(key);
    return near.isEmpty() ? "" : "; did you mean '" + near + "'?";
  }

  private static Config build(Map<String, String> v) throws ConfigException {
    String listen = get(v, "web.listen-address");
    int colon = listen.lastIndexOf(':');
    if (colon < 0) {
      throw new ConfigException("web.listen-address: '" + listen + "' needs a port, e.g. :10170 or 127.0.0.1:10170");
    }
    String host = listen.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(listen.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new ConfigException("web.listen-address: '" + listen + "' has no numeric port");
    }
    if (port < 0 || port > 65535) {
      throw new ConfigException("web.listen-address: port " + port + " is outside 0..65535");
    }
    String path = get(v, "web.telemetry-path");
    if (!path.startsWith("/") || path.equals("/")) {
      throw new ConfigException("web.telemetry-path: '" + path + "' must start with / and not be / itself");
    }
    String tunnel = get(v, "tunnel.interface");
    checkInterfaceName("tunnel.interface", tunnel);
    Optional<String> underlay = optional(v, "underlay.interface");
    if (underlay.isPresent()) {
      checkInterfaceName("underlay.interface", underlay.get());
      if (underlay.get().equals(tunnel)) {
        throw new ConfigException("underlay.interface: '" + tunnel + "' is the tunnel itself; name the NIC under it");
      }
    }
    double saturation;
    try {
      saturation = Double.parseDouble(get(v, "cpu.saturation"));
    } catch (NumberFormatException e) {
      throw new ConfigException("cpu.saturation: '" + get(v, "cpu.saturation") + "' is not a number");
    }
    if (!(saturation > 0 && saturation <= 1)) {
      throw new ConfigException("cpu.saturation: " + saturation + " must be a ratio in (0, 1]");
    }
    List<String> procs = Arrays.stream(get(v, "datapath.process").split(","))
        .map(String::strip).filter(s -> !s.isEmpty()).toList();
    if (procs.isEmpty()) {
      throw new ConfigException("datapath.process: needs at least one process name");
    }
    var interval = Quantities.duration(get(v, "sample.interval"), "sample.interval");
    var window = Quantities.duration(get(v, "sample.peak-window"), "sample.peak-window");
    if (window.compareTo(interval) < 0) {
      throw new ConfigException("sample.peak-window: " + get(v, "sample.peak-window")
          + " is shorter than sample.interval " + get(v, "sample.interval"));
    }
    var learnAfter = Quantities.duration(get(v, "ceiling.learn-after"), "ceiling.learn-after");
    if (learnAfter.compareTo(interval) < 0) {
      throw new ConfigException("ceiling.learn-after: " + get(v, "ceiling.learn-after")
          + " is shorter than sample.interval " + get(v, "sample.interval"));
    }
    return new Config(
        host,
        port,
        path,
        optional(v, "web.config.file").map(Path::of),
        Path.of(get(v, "path.sysfs")),
        Path.of(get(v, "path.procfs")),
        tunnel,
        underlay,
        rate(v, "underlay.line-rate"),
        interval,
        window,
        procs,
        rate(v, "ceiling.download"),
        rate(v, "ceiling.upload"),
        Path.of(get(v, "profile.file")),
        get(v, "labels.network"),
        get(v, "labels.site"),
        saturation,
        Quantities.duration(get(v, "check.duration"), "check.duration"),
        Quantities.duration(get(v, "profile.max-duration"), "profile.max-duration"),
        get(v, "profile.target"),
        durationOrZero(v, "census.interval"),
        Path.of(get(v, "path.rundir")),
        durationOrZero(v, "netbird.interval"),
        get(v, "netbird.command"),
        rate(v, "underlay.flow-cap"),
        bool(v, "underlay.jumbo-path"),
        Path.of(get(v, "path.cgroupfs")),
        optional(v, "profile.baseline"),
        profileSteps(get(v, "profile.steps")),
        durationOrZero(v, "netbird.status-interval"),
        Path.of(get(v, "path.state")),
        learnAfter);
  }

  private static int profileSteps(String s) throws ConfigException {
    try {
      int n = Integer.parseInt(s.strip());
      if (n >= 3 && n <= 64) {
        return n;
      }
    } catch (NumberFormatException e) {
      // named below
    }
    // Three steps is the least that can show two steps adding load without a gain.
    throw new ConfigException("profile.steps: '" + s + "' must be a whole number from 3 to 64");
  }

  private static boolean bool(Map<String, String> v, String key) throws ConfigException {
    String s = get(v, key).strip();
    if (s.equals("true") || s.equals("false")) {
      return Boolean.parseBoolean(s);
    }
    throw new ConfigException(key + ": '" + s + "' is not true or false");
  }

  /** A duration where {@code 0s} means "off". */
  private static java.time.Duration durationOrZero(Map<String, String> v, String key) throws ConfigException {
    return Quantities.durationOrZero(get(v, key), key);
  }

  private static void checkInterfaceName(String key, String name) throws ConfigException {
    // Linux interface names: 1..15 bytes, no '/', no whitespace, not "." or "..".
    if (name.isEmpty() || name.length() > 15 || name.contains("/") || name.chars().anyMatch(Character::isWhitespace)
        || name.equals(".") || name.equals("..")) {
      throw new ConfigException(key + ": '" + name + "' is not a Linux interface name (1-15 characters, no '/' or spaces)");
    }
  }

  private static String get(Map<String, String> v, String key) {
    return v.getOrDefault(key, SETTINGS.get(key)[0]);
  }

  private static Optional<String> optional(Map<String, String> v, String key) {
    String s = get(v, key);
    return s == null || s.isBlank() ? Optional.empty() : Optional.of(s.strip());
  }

  private static OptionalDouble rate(Map<String, String> v, String key) throws ConfigException {
    Optional<String> s = optional(v, key);
    return s.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(Quantities.bitRateToBytes(s.get(), key));
  }

}
