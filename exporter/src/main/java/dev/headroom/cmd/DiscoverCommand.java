package dev.headroom.cmd;

import dev.headroom.config.Quantities;
import dev.headroom.read.netbird.Targets;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code headroom discover}: one per fleet, next to Prometheus. Reads NetBird's management API (Networks, their
 * routers, the older routes, peers, groups) every {@code --netbird.refresh-interval} and serves every routing peer
 * as a Prometheus HTTP service discovery target, with the inventory as metrics. {@code --once} prints the inventory
 * and the design rules broken, and exits.
 *
 * <p>Usage: {@code headroom discover --netbird.token-file=/etc/headroom/netbird-token}, or
 * {@code headroom discover --once --netbird.token-file=token --netbird.api-url=https://netbird.example:33073}
 *
 * <p>Exit codes: 0 stopped by a signal, or {@code --once} read the inventory; 1 NetBird refused the token at start,
 * or {@code --once} could not read the inventory, or the port cannot be bound; 2 bad flags, token file or web config.
 */
@Command(name = "discover", mixinStandardHelpOptions = true,
    description = "Find every routing peer in NetBird's management API and serve them as Prometheus HTTP service"
        + " discovery targets (/sd), with the inventory as metrics; one per fleet, next to Prometheus.")
public final class DiscoverCommand implements Callable<Integer> {
  @Option(names = "--web.listen-address", paramLabel = "HOST:PORT", defaultValue = ":10171",
      description = "address to serve /sd, /metrics and the inventory on (default ${DEFAULT-VALUE})")
  String listen;
  @Option(names = "--web.config.file", paramLabel = "FILE",
      description = "exporter-toolkit web config (TLS, basic auth), as for serve")
  Path webConfigFile;
  @Option(names = "--netbird.api-url", paramLabel = "URL", defaultValue = "https://api.netbird.io",
      description = "NetBird's management API: the cloud's, or a self-hosted management server's URL"
          + " (default ${DEFAULT-VALUE})")
  URI apiUrl;
  @Option(names = "--netbird.token-file", paramLabel = "FILE", required = true,
      description = "file holding a personal access token of a NetBird service user that may read the account"
          + " (systemd: LoadCredential=, read from $CREDENTIALS_DIRECTORY)")
  Path tokenFile;
  @Option(names = "--netbird.ca-file", paramLabel = "FILE",
      description = "PEM certificates to verify the management server with, instead of the system's CAs")
  Path caFile;
  @Option(names = "--netbird.refresh-interval", paramLabel = "DURATION", defaultValue = "60s",
      description = "how often to read the inventory (default ${DEFAULT-VALUE}); failures back off from 5s to 5m")
  Duration refresh;
  @Option(names = "--netbird.timeout", paramLabel = "DURATION", defaultValue = "10s",
      description = "how long one API request may take, connect to last byte (default ${DEFAULT-VALUE})")
  Duration timeout;
  @Option(names = "--discover.target-port", paramLabel = "PORT", defaultValue = "10170",
      description = "the port headroom serve listens on at the routing peers (default ${DEFAULT-VALUE})")
  int targetPort;
  @Option(names = "--discover.target-address", paramLabel = "ip|dns", defaultValue = "ip",
      description = "scrape a routing peer at its NetBird overlay IP (ip) or its NetBird DNS name (dns)"
          + " (default ${DEFAULT-VALUE})")
  String targetAddress;
  @Option(names = "--once", description = "read the inventory once, print each Network, its routers and the design"
      + " rules broken, and exit (1 when NetBird cannot be read)")
  boolean once;
  @Spec CommandLine.Model.CommandSpec spec;

  final PrintStream out;
  final PrintStream err;

  DiscoverCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** The command with its own flags and their types (durations as the sampling commands read them). */
  static CommandLine commandLine(PrintStream out, PrintStream err) {
    CommandLine cl = new CommandLine(new DiscoverCommand(out, err));
    cl.registerConverter(Duration.class, Quantities::durationOrZero);
    return cl;
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  @Override
  public Integer call() throws Exception {
    Targets targets;
    try {
      targets = new Targets(Targets.Address.parse(targetAddress), targetPort);
    } catch (IllegalArgumentException e) {
      throw usage("--discover.target-address " + e.getMessage());
    }
    if (targetPort < 1 || targetPort > 65535) {
      throw usage("--discover.target-port " + targetPort + " is outside 1..65535");
    }
    if (refresh.isZero() || timeout.isZero()) {
      throw usage((refresh.isZero() ? "--netbird.refresh-interval" : "--netbird.timeout") + " must be above 0s");
    }
    String scheme = apiUrl.getScheme() == null ? "" : apiUrl.getScheme();
    if (!scheme.equals("https") && !scheme.equals("http") || apiUrl.getHost() == null) {
      throw usage("--netbird.api-url '" + apiUrl + "' is not an http(s) URL");
    }
    int colon = listen.lastIndexOf(':');
    int port;
    try {
      port = Integer.parseInt(listen.substring(colon + 1));
    } catch (RuntimeException e) {
      throw usage("--web.listen-address '" + listen + "' needs a numeric port, e.g. :10171");
    }
    String host = listen.substring(0, colon);
    host = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;

    return DiscoverProcess.run(this, targets, host, port);
  }
}
