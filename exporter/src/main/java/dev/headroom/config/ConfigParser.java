package dev.headroom.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * Parses flags in Prometheus exporter style ({@code --key=value} or {@code --key value}) and the optional
 * YAML file named by {@code --config.file}, whose keys are the same names without dashes (nested maps are
 * joined with dots). Flags beat the file; the file beats defaults. Unknown keys and bad values are errors.
 *
 * <p>Usage: {@code ConfigParser.Parsed p = ConfigParser.parse(new String[] {"--tunnel.interface=wt1"});}
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
    def("labels.network", "default", "the NetBird Network this peer routes for (on headroom_peer_info)");
    def("labels.site", "default", "the site of this peer (on headroom_peer_info)");
    def("cpu.saturation", "0.9", "busy ratio at which a core counts as saturated");
    def("check.duration", "3s", "how long 'check' samples before it reports");
    def("path.rundir", "/var/run", "run directory holding wireguard/<tunnel>.sock (userspace datapath)");
    def("census.interval", "5s", "how often to read every tunnel's counters (0s: never)");
    def("netbird.interval", "30s", "how often to ask 'netbird status --json' for P2P/relayed counts (0s: never)");
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

  /** The configuration plus the arguments that were not flags (subcommand words). */
  public record Parsed(Config config, List<String> positional) {}

  private ConfigParser() {}

  public static Parsed parse(String[] args) throws ConfigException {
    Map<String, String> flags = new LinkedHashMap<>();
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        positional.add(a);
        continue;
      }
      String body = a.substring(2);
      String key;
      String value;
      int eq = body.indexOf('=');
      if (eq >= 0) {
        key = body.substring(0, eq);
        value = body.substring(eq + 1);
      } else {
        key = body;
        if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
          throw new ConfigException("--" + key + ": needs a value (--" + key + "=VALUE)");
        }
        value = args[++i];
      }
      if (!SETTINGS.containsKey(key)) {
        throw new ConfigException("--" + key + ": unknown flag" + suggestion(key) + " (see --help)");
      }
      flags.put(key, value);
    }
    Map<String, String> values = new LinkedHashMap<>();
    String file = flags.get("config.file");
    if (file != null && !file.isBlank()) {
      values.putAll(readYaml(Path.of(file)));
    }
    values.putAll(flags);
    return new Parsed(build(values), positional);
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

  private static String suggestion(String key) {
    String best = null;
    int bestDist = 4;
    for (String k : SETTINGS.keySet()) {
      int d = distance(k, key);
      if (d < bestDist) {
        best = k;
        bestDist = d;
      }
    }
    return best == null ? "" : " (did you mean '" + best + "'?)";
  }

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
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
        profileSteps(get(v, "profile.steps")));
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

  /** Flag help, for {@code --help}. */
  public static String help() {
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, String[]> e : SETTINGS.entrySet()) {
      String d = e.getValue()[0];
      b.append(String.format("  --%-22s %s%s%n", e.getKey(), e.getValue()[1], d.isEmpty() ? "" : " (default " + d + ")"));
    }
    return b.toString();
  }
}
