package dev.headroom.serve;

import dev.headroom.read.netbird.Discovery;
import dev.headroom.read.netbird.Targets;
import dev.headroom.serve.web.Refusals;
import dev.headroom.serve.web.WebConfig;
import dev.headroom.serve.web.WebSecurity;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The HTTP face of {@code headroom discover}: {@code /sd} (Prometheus HTTP service discovery), {@code /metrics}, the
 * inventory as JSON ({@code /api/v1/inventory}) and in words ({@code /}), {@code /-/healthy} and {@code /-/ready}.
 * Served with the exporter's web stack: the same TLS, basic auth and request limits from {@code --web.config.file}.
 * Until NetBird's inventory was first read, {@code /sd} answers 503, so a Prometheus keeps the list it had rather
 * than taking an empty one.
 *
 * <p>Usage: {@code DiscoverServer s = DiscoverServer.start("", 10171, discovery, targets, registry, web, refusals);}
 */
public final class DiscoverServer implements AutoCloseable {
  public static final String SD_PATH = "/sd";
  private final Javalin app;
  private final Discovery discovery;
  private final Targets targets;
  /** The service discovery list rendered for one snapshot; a refresh makes a new snapshot. */
  private volatile Rendered sd;

  private record Rendered(Discovery.Snapshot snapshot, String body) {}

  private DiscoverServer(Javalin app, Discovery discovery, Targets targets) {
    this.app = app;
    this.discovery = discovery;
    this.targets = targets;
  }

  public static DiscoverServer start(String host, int port, Discovery discovery, Targets targets,
      PrometheusRegistry registry, WebConfig web, Refusals refusals) {
    MetricsEndpoint metrics = new MetricsEndpoint(registry, () -> null); // the age changes every second
    DiscoverServer[] self = new DiscoverServer[1];
    Javalin app = Javalin.create(config -> {
      config.startup.showJavalinBanner = false;
      config.startup.startupWatcherEnabled = false;
      config.startup.showOldJavalinVersionWarning = false;
      WebSecurity.apply(config, web, WebSecurity.Limits.DEFAULT, refusals);
      config.routes.get(SD_PATH, ctx -> self[0].sd(ctx));
      config.routes.get("/metrics", metrics::handle);
      config.routes.get("/-/healthy", ctx -> ctx.contentType("text/plain").result("OK\n"));
      config.routes.get("/-/ready", ctx -> {
        Discovery.State s = discovery.state();
        boolean ready = s.snapshot() != null;
        ctx.status(ready ? 200 : 503).contentType("text/plain").result(ready
            ? "serving the inventory read " + age(s.snapshot()) + " s ago"
                + (s.failuresInARow() > 0 ? "; the last " + s.failuresInARow() + " refreshes failed: " + s.lastError() : "")
                + "\n"
            : "no inventory read yet: " + (s.lastError().isEmpty() ? "first refresh running" : s.lastError()) + "\n");
      });
      config.routes.get("/api/v1/inventory", ctx -> ctx.contentType("application/json")
          .header("Cache-Control", "no-store")
          .result(InventoryJson.inventory(discovery.state(), targets, System.currentTimeMillis())));
      config.routes.get("/", ctx -> {
        Discovery.Snapshot s = discovery.snapshot();
        ctx.contentType("text/plain; charset=utf-8").header("Cache-Control", "no-store")
            .result("headroom discover: Prometheus HTTP service discovery from NetBird at " + SD_PATH
                + ", metrics at /metrics, inventory as JSON at /api/v1/inventory\n\n"
                + (s == null ? "no inventory read yet: " + discovery.state().lastError() + "\n"
                    : InventoryInWords.render(s.inventory(), targets)));
      });
    });
    self[0] = new DiscoverServer(app, discovery, targets);
    app.start(host.isEmpty() ? null : host, port);
    return self[0];
  }

  private static long age(Discovery.Snapshot s) {
    return (System.currentTimeMillis() - s.refreshedAtMillis()) / 1000;
  }

  private void sd(Context ctx) {
    Discovery.Snapshot s = discovery.snapshot();
    if (s == null) {
      ctx.status(503).contentType("text/plain").result("no inventory read from NetBird yet: "
          + discovery.state().lastError() + "\n");
      return;
    }
    Rendered r = sd;
    if (r == null || r.snapshot() != s) {
      sd = r = new Rendered(s, InventoryJson.serviceDiscovery(s.inventory(), targets));
    }
    ctx.contentType("application/json").header("Cache-Control", "no-store").result(r.body());
  }

  public int port() {
    return app.port();
  }

  @Override
  public void close() {
    app.stop();
  }
}
