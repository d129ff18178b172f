package dev.headroom.cmd;

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
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * What {@code headroom discover} runs once its flags are checked: the first read (the token refused: one line, exit
 * 1), then {@code --once}'s words or the server until a signal. A class of its own so that the other commands, which
 * only register {@link DiscoverCommand}'s flags, never load the API client, {@code java.net.http} or the server.
 *
 * <p>Usage: {@code return DiscoverProcess.run(command, targets, host, port);}
 */
final class DiscoverProcess {
  private static final Logger log = LoggerFactory.getLogger(DiscoverProcess.class);

  private DiscoverProcess() {}

  static int run(DiscoverCommand c, Targets targets, String host, int port) throws InterruptedException {
    NetbirdApi api;
    try {
      String token = NetbirdApi.readToken(c.tokenFile);
      api = new NetbirdApi(c.apiUrl, token, Optional.ofNullable(c.caFile), c.timeout);
    } catch (IOException e) {
      c.err.println("headroom discover: " + e.getMessage());
      return 2;
    }
    WebConfig web;
    try {
      web = c.webConfigFile == null ? WebConfig.NONE : WebConfigParser.parse(c.webConfigFile);
    } catch (WebConfigException e) {
      c.err.println("headroom discover: web config: " + e.getMessage());
      return 2;
    }
    Discovery[] holder = new Discovery[1];
    InventoryReader reader = new InventoryReader(api, m -> holder[0].inconsistency(m));
    Discovery discovery = new Discovery(reader, c.refresh, System::currentTimeMillis);
    holder[0] = discovery;

    Optional<ApiException> first = discovery.refresh(false); // told here, once, in the start's own words
    if (first.isPresent() && first.get().outcome() == Outcome.UNAUTHORIZED) {
      c.err.println("headroom discover: " + first.get().getMessage() + " (token from " + c.tokenFile + ")");
      return 1;
    }
    if (first.isPresent() && !c.once) {
      log.warn("NetBird API: {}; /sd answers 503 until the inventory is read (the next try backs off)",
          first.get().getMessage());
    }
    if (c.once) {
      if (first.isPresent()) {
        c.err.println("headroom discover: cannot read NetBird's inventory: " + first.get().getMessage());
        return 1;
      }
      c.out.print(InventoryInWords.render(discovery.snapshot().inventory(), targets));
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
      c.err.println("headroom discover: web config: " + e.getMessage());
      return 2;
    } catch (RuntimeException e) {
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      c.err.println("headroom discover: cannot serve on " + c.listen + ": "
          + (root.getMessage() == null ? root.toString() : root.getMessage()));
      return 1;
    }
    discovery.start(first.isPresent() ? Discovery.delayAfter(c.refresh, first.get()) : c.refresh);
    log.info("headroom {} discover serving {} on {}:{}, from {} every {}", Version.get(), DiscoverServer.SD_PATH,
        host.isEmpty() ? "*" : host, server.port(), c.apiUrl, c.refresh.toSeconds() + "s");
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
