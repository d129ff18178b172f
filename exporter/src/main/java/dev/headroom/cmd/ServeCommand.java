package dev.headroom.cmd;

import dev.headroom.daemon.Daemon;
import dev.headroom.config.Config;
import dev.headroom.config.ConfigParser;
import dev.headroom.serve.HeadroomMetrics;
import dev.headroom.serve.History;
import dev.headroom.serve.HttpServer;
import dev.headroom.serve.MetricsEndpoint;
import dev.headroom.serve.Readiness;
import dev.headroom.serve.web.CertificateValidity;
import dev.headroom.serve.web.Refusals;
import dev.headroom.serve.web.WebConfig;
import dev.headroom.serve.web.WebConfigException;
import dev.headroom.serve.web.WebConfigParser;
import dev.headroom.serve.web.WebSecurity;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.instrumentation.jvm.JvmGarbageCollectorMetrics;
import io.prometheus.metrics.instrumentation.jvm.JvmMemoryMetrics;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code headroom serve}: sample every interval and serve metrics until stopped.
 *
 * <p>Usage: {@code ServeCommand.Running r = ServeCommand.start(config); ... r.close();}
 */
public final class ServeCommand {
  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  private ServeCommand() {}

  /** A running daemon and server; closing stops both. */
  public record Running(Daemon daemon, HttpServer server) implements AutoCloseable {
    @Override
    public void close() {
      server.close();
      daemon.close();
    }
  }

  /**
   * The exporter's own cost, which counts against the peer it measures: CPU, resident memory, open files
   * ({@code process_*}), heap and non-heap use ({@code jvm_memory_*}) and GC time. The rest of client_java's
   * JVM families (threads, buffer pools, class loading, JIT, memory-pool allocation, native memory, runtime
   * info) are left out: each brings JMX classes, a thread dump or a GC listener per scrape for figures an
   * operator of this exporter does not act on (docs/benchmarks.md measures the difference).
   *
   * <p>Usage: {@code ServeCommand.registerOwnCost(registry);}
   */
  public static void registerOwnCost(PrometheusRegistry registry) {
    ProcessMetrics.builder().register(registry);
    JvmMemoryMetrics.builder().register(registry);
    JvmGarbageCollectorMetrics.builder().register(registry);
  }

  /**
   * Serves {@code parsed} until a signal stops it, reloading on SIGHUP ({@link ServeProcess}); returns the exit
   * code: 2 for a bad web config file, 1 when the server cannot start.
   */
  static int serve(ConfigParser.Parsed parsed, PrintStream err) throws InterruptedException {
    Config config = parsed.config();
    ServeProcess.trapSignals();
    WebConfig web;
    Running running;
    try {
      web = webConfig(config);
      running = start(config, web, () -> {}, System::nanoTime);
    } catch (WebConfigException e) {
      err.println("headroom: web config: " + e.getMessage());
      return 2;
    } catch (RuntimeException e) {
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      err.println("headroom: cannot serve on " + config.web().host() + ":" + config.web().port() + ": "
          + (root.getMessage() == null ? root.toString() : root.getMessage()));
      return 1;
    }
    return ServeProcess.run(parsed.flags(), config, web, running);
  }

  /**
   * Starts sampling and serving. A bad web config file throws {@link WebConfigException} before anything
   * starts, naming the file, the key and the problem.
   */
  public static Running start(Config config) {
    return start(config, webConfig(config), () -> {}, System::nanoTime);
  }

  /** The web config {@code config} names, parsed and checked; {@link WebConfig#NONE} when none. */
  public static WebConfig webConfig(Config config) {
    return config.web().configFile().map(WebConfigParser::parse).orElse(WebConfig.NONE);
  }

  /**
   * Starts sampling and serving with an already parsed web config; {@code beforeBind} runs once the sampler is
   * up, just before the port is bound, so a reload can keep the old server answering until then.
   * {@code readingClock} stamps each reading of the counters (see {@link Daemon#start}).
   */
  public static Running start(Config config, WebConfig web, Runnable beforeBind, LongSupplier readingClock) {
    Optional<CertificateValidity> certificate = web.tls().map(t -> CertificateValidity.read(t.certFile()));
    certificate.ifPresent(c -> c.problems(Instant.now()).forEach(p -> log.warn("tls_server_config: {}", p)));
    Daemon daemon = Daemon.start(config, readingClock);
    History history = new History(History.SPAN, config.sampling().interval());
    daemon.addListener(history);
    PrometheusRegistry registry = new PrometheusRegistry();
    HeadroomMetrics.ExporterInfo info = new HeadroomMetrics.ExporterInfo(
        Version.get(), config.labels().network(), config.labels().site(), config.sampling().tunnelInterface(), config.ceilings().cpuSaturation());
    Refusals refusals = new Refusals(); // counted by the web layer, exposed with headroom's own families
    registry.register(new HeadroomMetrics(daemon::published, info, refusals));
    registerOwnCost(registry);
    certificate.ifPresent(c -> Gauge.builder().name("headroom_tls_certificate_expiry_timestamp_seconds")
        .help("When the first certificate of the served TLS chain expires (its notAfter), Unix seconds")
        .register(registry).set(c.expiry().getEpochSecond()));
    HttpServer server;
    try {
      beforeBind.run();
      MetricsEndpoint metrics = new MetricsEndpoint(registry, daemon::published);
      server = HttpServer.start(config.web().host(), config.web().port(), config.web().telemetryPath(), metrics,
          daemon::published, info, new Readiness(config.sampling().interval()), history, 
          c -> WebSecurity.apply(c, web, WebSecurity.Limits.DEFAULT, refusals));
    } catch (RuntimeException e) {
      daemon.close();
      throw e;
    }
    log.info("headroom {} serving {} on {}:{}, tunnel {}", info.version(), config.web().telemetryPath(),
        config.web().host().isEmpty() ? "*" : config.web().host(), server.port(), config.sampling().tunnelInterface());
    return new Running(daemon, server);
  }
}
