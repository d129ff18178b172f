package dev.headroom.cmd;

import dev.headroom.config.Quantities;
import dev.headroom.read.netbird.Discovery;
import dev.headroom.read.netbird.InventoryReader;
import dev.headroom.read.netbird.NetbirdApi;
import dev.headroom.read.netbird.NetbirdApi.ApiException;
import dev.headroom.read.netbird.NetbirdApi.Outcome;
import dev.headroom.read.netbird.Targets;
import dev.headroom.serve.DiscoverServer;
import dev.headroom.serve.InventoryInWords;
import dev.headroom.serve.InventoryMetrics;
import dev.headroom.serve.web.Refusals;
import dev.headroom.serve.web.WebConfig;
import dev.headroom.serve.web.WebConfigException;
import dev.headroom.serve.web.WebConfigParser;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import sun.misc.Signal;

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
  private static final Logger log = LoggerFactory.getLogger(DiscoverCommand.class);

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

  private final PrintStream out;
  private final PrintStream err;

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

    NetbirdApi api;
    try {
      String token = NetbirdApi.readToken(tokenFile);
      api = new NetbirdApi(apiUrl, token, Optional.ofNullable(caFile), timeout);
    } catch (IOException e) {
      err.println("headroom discover: " + e.getMessage());
      return 2;
    }
    WebConfig web;
    try {
      web = webConfigFile == null ? WebConfig.NONE : WebConfigParser.parse(webConfigFile);
    } catch (WebConfigException e) {
      err.println("headroom discover: web config: " + e.getMessage());
      return 2;
    }
    Discovery[] holder = new Discovery[1];
    InventoryReader reader = new InventoryReader(api, m -> holder[0].inconsistency(m));
    Discovery discovery = new Discovery(reader, refresh, System::currentTimeMillis);
    holder[0] = discovery;

    Optional<ApiException> first = discovery.refresh(false); // told here, once, in the start's own words
    if (first.isPresent() && first.get().outcome() == Outcome.UNAUTHORIZED) {
      err.println("headroom discover: " + first.get().getMessage() + " (token from " + tokenFile + ")");
      return 1;
    }
    if (first.isPresent() && !once) {
      log.warn("NetBird API: {}; /sd answers 503 until the inventory is read (the next try backs off)",
          first.get().getMessage());
    }
    if (once) {
      if (first.isPresent()) {
        err.println("headroom discover: cannot read NetBird's inventory: " + first.get().getMessage());
        return 1;
      }
      out.print(InventoryInWords.render(discovery.snapshot().inventory(), targets));
      return 0;
    }
    trapSignals();
    Refusals refusals = new Refusals();
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(new InventoryMetrics(discovery, targets, Version.get(), refusals, System::currentTimeMillis));
    ServeCommand.registerOwnCost(registry);
    DiscoverServer server;
    try {
      server = DiscoverServer.start(host, port, discovery, targets, registry, web, refusals);
    } catch (WebConfigException e) {
      err.println("headroom discover: web config: " + e.getMessage());
      return 2;
    } catch (RuntimeException e) {
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      err.println("headroom discover: cannot serve on " + listen + ": "
          + (root.getMessage() == null ? root.toString() : root.getMessage()));
      return 1;
    }
    discovery.start(first.isPresent() ? Discovery.delayAfter(refresh, first.get()) : refresh);
    log.info("headroom {} discover serving {} on {}:{}, from {} every {}", Version.get(), DiscoverServer.SD_PATH,
        host.isEmpty() ? "*" : host, server.port(), apiUrl, refresh.toSeconds() + "s");
    STOP.await();
    log.info("stopping on a signal");
    server.close();
    discovery.close();
    return 0;
  }

  private static final CountDownLatch STOP = new CountDownLatch(1);

  /** SIGTERM and SIGINT stop with exit 0 (as serve does); SIGHUP, which would end the JVM, is only logged. */
  private static void trapSignals() {
    Signal.handle(new Signal("TERM"), s -> STOP.countDown());
    Signal.handle(new Signal("INT"), s -> STOP.countDown());
    Signal.handle(new Signal("HUP"), s -> log.info("SIGHUP: discover has nothing to reload; restart it to read"
        + " a new token or flags"));
  }
}
