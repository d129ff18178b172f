package dev.headroom.serve;

import io.javalin.http.Context;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;

/**
 * The {@code /metrics} handler: renders the registry through client_java's writers once per published
 * snapshot and format, and gzips once per snapshot when a scraper asks for it; scrapes in between get the
 * same bytes. The snapshot changes once per sample interval, so a second Prometheus, a dashboard refresh or a
 * burst of scrapes costs a copy, not a render.
 *
 * <p>Content negotiation is client_java's ({@link ExpositionFormats#findWriter}, escaping from the Accept
 * header); requests with {@code name[]} or {@code debug} parameters go to client_java's handler unchanged.
 *
 * <p>Usage: {@code MetricsEndpoint m = new MetricsEndpoint(registry, state::get); routes.get("/metrics", m::handle);}
 */
public final class MetricsEndpoint {
  private final PrometheusRegistry registry;
  private final Supplier<?> snapshot;
  private final ExpositionFormats formats = ExpositionFormats.init();
  /** Per content type and escaping: the bytes of the snapshot last rendered. */
  private final Map<String, Rendered> cache = new HashMap<>();
  private volatile Object fallback;

  /**
   * Everything in {@code registry} rendered through client_java. {@code snapshot} returns the object whose
   * identity marks a new state (the daemon's {@link Published}); while it returns the same object, rendered
   * bytes are reused; while it returns null nothing is cached.
   */
  public MetricsEndpoint(PrometheusRegistry registry, Supplier<?> snapshot) {
    this.registry = registry;
    this.snapshot = snapshot;
  }

  /** What one scrape is served: a body and how it is encoded. */
  public record Body(String contentType, String contentEncoding, byte[] bytes) {}

  public void handle(Context ctx) throws IOException {
    if (ctx.queryParamMap().containsKey("name[]") || ctx.queryParamMap().containsKey("debug")) {
      Fallback.handle(fallback(), ctx);
      return;
    }
    Body b = body(ctx.header("Accept"), ctx.header("Accept-Encoding"));
    var res = ctx.res();
    res.setStatus(200);
    res.setContentType(b.contentType());
    if (b.contentEncoding() != null) {
      res.setHeader("Content-Encoding", b.contentEncoding());
    }
    res.setContentLength(b.bytes().length);
    try (OutputStream out = res.getOutputStream()) {
      out.write(b.bytes());
    }
  }

  /** The body for these request headers (either may be null), from the cache when the snapshot is unchanged. */
  public Body body(String accept, String acceptEncoding) throws IOException {
    ExpositionFormatWriter writer = formats.findWriter(accept);
    EscapingScheme escaping = EscapingScheme.fromAcceptHeader(accept, EscapingScheme.DEFAULT);
    boolean gzip = acceptEncoding != null && acceptEncoding.toLowerCase(java.util.Locale.ROOT).contains("gzip");
    Rendered r = rendered(writer, escaping);
    return new Body(writer.getContentType(), gzip ? "gzip" : null, gzip ? r.gzipped() : r.plain);
  }

  /**
   * One render per new snapshot even when scrapes arrive together: a render reads an immutable snapshot, so a
   * second one would give the same bytes at the cost of a render. A scrape of an unchanged snapshot holds the
   * lock only for the lookup.
   */
  private synchronized Rendered rendered(ExpositionFormatWriter writer, EscapingScheme escaping) throws IOException {
    String key = writer.getContentType() + ';' + escaping.name();
    Object state = snapshot.get();
    Rendered r = cache.get(key);
    if (r != null && state != null && r.state == state) {
      return r;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(r == null ? 16 * 1024 : r.plain.length + 1024);
    writer.write(out, registry.scrape(), escaping);
    r = new Rendered(state, out.toByteArray());
    if (state != null) {
      cache.put(key, r);
    }
    return r;
  }

  private Object fallback() {
    Object f = fallback;
    if (f == null) {
      fallback = f = Fallback.create(registry);
    }
    return f;
  }

  /** One snapshot in one format; the gzip form is made on the first scrape that asks for it. */
  private static final class Rendered {
    final Object state;
    final byte[] plain;
    private byte[] gzipped;

    Rendered(Object state, byte[] plain) {
      this.state = state;
      this.plain = plain;
    }

    synchronized byte[] gzipped() throws IOException {
      if (gzipped == null) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length / 4 + 64);
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
          z.write(plain);
        }
        gzipped = out.toByteArray();
      }
      return gzipped;
    }
  }

  /**
   * client_java's servlet handler, for filtered ({@code name[]}) and debug scrapes only; a class of its own so
   * the servlet adapter's classes load only when such a request comes.
   */
  private static final class Fallback {
    static Object create(PrometheusRegistry registry) {
      return new io.prometheus.metrics.exporter.common.PrometheusScrapeHandler(registry);
    }

    static void handle(Object handler, Context ctx) throws IOException {
      ((io.prometheus.metrics.exporter.common.PrometheusScrapeHandler) handler).handleRequest(
          new io.prometheus.metrics.exporter.servlet.jakarta.HttpExchangeAdapter(ctx.req(), ctx.res()));
    }
  }
}
