package dev.headroom.serve;

import io.javalin.Javalin;
import io.javalin.http.Context;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The HTTP face of the daemon: metrics, landing page, health, readiness and JSON status. Handlers only
 * read the published snapshot.
 *
 * <p>Usage: {@code HttpServer s = HttpServer.start(host, port, "/metrics", new MetricsEndpoint(registry, state::get), state::get, info, readiness, history, c -> {});}
 */
public final class HttpServer implements AutoCloseable {
  private final Javalin app;

  private HttpServer(Javalin app) {
    this.app = app;
  }

  /**
   * Starts serving. {@code customize} runs last on the Javalin config, for web security (TLS, basic auth).
   */
  public static HttpServer start(
      String host,
      int port,
      String telemetryPath,
      MetricsEndpoint metrics,
      Supplier<Published> state,
      HeadroomMetrics.ExporterInfo info,
      Readiness readiness,
      History history,
      Consumer<io.javalin.config.JavalinConfig> customize) {
    Javalin app = Javalin.create(config -> {
      config.startup.showJavalinBanner = false;
      // Javalin's watcher is a non-daemon thread per server that sleeps 5 s to say start() was never called: this
      // server always starts, so it only held every start and stop (and each test fork's exit) for 5 s.
      config.startup.startupWatcherEnabled = false;
      config.startup.showOldJavalinVersionWarning = false;
      config.routes.get(telemetryPath, metrics::handle);
      config.routes.get("/-/healthy", ctx -> ctx.contentType("text/plain").result("OK\n"));
      config.routes.get("/-/ready", ctx -> {
        Readiness.State r = readiness.check(state.get(), System.nanoTime());
        ctx.status(r.ready() ? 200 : 503).contentType("text/plain").result(r.reason() + "\n");
      });
      config.routes.get("/api/v1/status", ctx -> {
        Published p = state.get();
        json(ctx, StatusJson.render(p, info, readiness.check(p, System.nanoTime())));
      });
      config.routes.get("/api/v1/history", ctx -> json(ctx, history.json(LiveAssets.after(ctx.queryParam("after")))));
      config.routes.get("/", ctx -> {
        Published p = state.get();
        LiveAssets.page(ctx).result(LandingPage.render(p, info, telemetryPath, readiness.check(p, System.nanoTime())));
      });
      LiveAssets.routes(config);
      customize.accept(config);
    });
    app.start(host.isEmpty() ? null : host, port); // no host: every address, IPv6 included
    return new HttpServer(app);
  }

  private static void json(Context ctx, String body) {
    ctx.contentType("application/json").header("Cache-Control", "no-store").result(body);
  }

  /** The port actually bound (useful with port 0). */
  public int port() {
    return app.port();
  }

  @Override
  public void close() {
    app.stop();
  }
}
