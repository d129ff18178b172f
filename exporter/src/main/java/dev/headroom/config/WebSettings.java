package dev.headroom.config;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Where and how the daemon serves. Each field is one setting: its flag, its config-file key (the flag without
 * dashes), its {@code --help} line and its default; the accessors are the values the code reads.
 *
 * <p>Usage: {@code HttpServer.start(config.web().host(), config.web().port(), ...)}
 */
public final class WebSettings extends SettingsGroup {
  @Option(names = "--web.listen-address", paramLabel = "HOST:PORT", defaultValue = ":10170",
      description = "address to serve on, host:port (a routing peer should not expose it to the internet)"
          + " (default ${DEFAULT-VALUE})") private String listen;
  @Option(names = "--web.telemetry-path", paramLabel = "PATH", defaultValue = "/metrics",
      description = "path of the metrics (default ${DEFAULT-VALUE})") private String telemetryPath;
  @Option(names = "--web.config.file", paramLabel = "FILE",
      description = "exporter-toolkit web config (TLS, basic auth)") private Path configFile;

  /** The host part of the listen address, without an IPv6 address's brackets; empty: every address. */
  public String host() {
    String h = listen.substring(0, listen.lastIndexOf(':'));
    return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
  }

  public int port() {
    return Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1));
  }

  public String telemetryPath() {
    return telemetryPath;
  }

  /** The exporter-toolkit web config, if one is named. */
  public Optional<Path> configFile() {
    return Optional.ofNullable(configFile).filter(p -> !p.toString().isBlank());
  }

  void check(Checks c) throws ConfigException {
    int colon = listen.lastIndexOf(':');
    c.require(colon >= 0, "web.listen-address", "needs a port, e.g. :10170 or 127.0.0.1:10170");
    int port = -1;
    try {
      port = Integer.parseInt(listen.substring(colon + 1));
    } catch (NumberFormatException e) {
      c.require(false, "web.listen-address", "has no numeric port");
    }
    c.require(port >= 0 && port <= 65535, "web.listen-address", "has a port outside 0..65535");
    c.require(telemetryPath.startsWith("/") && !telemetryPath.equals("/"), "web.telemetry-path",
        "must start with / and not be / itself");
  }
}
