package dev.headroom.serve;

import io.javalin.http.Context;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;

/**
 * The {@code /metrics} handler: renders once per published snapshot and format, and gzips once per snapshot
 * when a scraper asks for it; scrapes in between get the same bytes. The snapshot changes once per sample
 * interval, so a second Prometheus, a dashboard refresh or a burst of scrapes costs a copy, not a render.
 *
 * <p>Built with a {@link HeadroomCollector}, headroom's own families are written straight from the snapshot
 * to bytes ({@link TextExposition}, byte for byte what client_java's text and OpenMetrics writers make of
 * them) and the registry's other families (client_java's {@code jvm_*} and {@code process_*}, the TLS
 * expiry) are rendered by client_java and merged in by name; those are collected again only when older than
 * {@code othersMaxAge}, so they are at most that old. Built with a registry alone, everything goes through
 * client_java once per snapshot.
 *
 * <p>Content negotiation is client_java's ({@link ExpositionFormats#findWriter}, escaping from the Accept
 * header); a format other than text and OpenMetrics 1.0, or an escaping that rewrites names, goes through
 * client_java whole, and requests with
 * {@code name[]} or {@code debug} parameters go to client_java's handler unchanged.
 *
 * <p>Usage: {@code MetricsEndpoint m = new MetricsEndpoint(collector, registry, state::get, Duration.ofSeconds(10)); routes.get("/metrics", m::handle);}
 */
public final class MetricsEndpoint {
  /** Everything: headroom's families and the others, as client_java's handler and writers see them. */
  private final PrometheusRegistry registry;
  private final HeadroomCollector headroom;
  private final PrometheusRegistry others;
  private final long othersMaxAgeNanos;
  private final Supplier<?> snapshot;
  private final ExpositionFormats formats = ExpositionFormats.init();
  /** Per content type and escaping: the bytes of the snapshot last rendered. */
  private final Map<String, Rendered> cache = new ConcurrentHashMap<>();
  /** Per content type and escaping: the other families last rendered (guarded by this). */
  private final Map<String, OtherFamilies> otherCache = new java.util.HashMap<>();
  /** Reused by every direct render (guarded by this). */
  private final Families families = new Families();
  private final TextExposition exposition = new TextExposition();
  private volatile Object fallback;

  /**
   * Everything in {@code registry} rendered through client_java. {@code snapshot} returns the object whose
   * identity marks a new state (the daemon's {@link Published}); while it returns the same object, rendered
   * bytes are reused; while it returns null nothing is cached.
   */
  public MetricsEndpoint(PrometheusRegistry registry, Supplier<?> snapshot) {
    this.registry = registry;
    this.headroom = null;
    this.others = null;
    this.othersMaxAgeNanos = 0;
    this.snapshot = snapshot;
  }

  /**
   * headroom's families written directly, {@code others} (which must not hold {@code headroom}) through
   * client_java at most every {@code othersMaxAge}; {@code snapshot} as above.
   */
  public MetricsEndpoint(HeadroomCollector headroom, PrometheusRegistry others, Supplier<?> snapshot,
      java.time.Duration othersMaxAge) {
    this.headroom = headroom;
    this.others = others;
    this.othersMaxAgeNanos = othersMaxAge.toNanos();
    this.snapshot = snapshot;
    this.registry = new PrometheusRegistry();
    registry.register(headroom);
    registry.register((io.prometheus.metrics.model.registry.MultiCollector) others::scrape);
  }

  /** What one scrape is served: a body and how it is encoded. */
  public record Body(String contentType, String contentEncoding, byte[] bytes) {}

  /** The Javalin handler. */
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

  private Rendered rendered(ExpositionFormatWriter writer, EscapingScheme escaping) throws IOException {
    String key = writer.getContentType() + ';' + escaping.name();
    Object state = snapshot.get();
    Rendered r = cache.get(key);
    if (r != null && state != null && r.state == state) {
      return r;
    }
    // One render per new snapshot even when scrapes arrive together: the collector takes the since-last-scrape
    // peaks, so rendering twice for one snapshot would also report them twice.
    synchronized (this) {
      state = snapshot.get();
      r = cache.get(key);
      if (r != null && state != null && r.state == state) {
        return r;
      }
      r = new Rendered(state, render(writer, escaping, key, r));
      if (state != null) {
        cache.put(key, r);
      }
      return r;
    }
  }

  private byte[] render(ExpositionFormatWriter writer, EscapingScheme escaping, String key, Rendered last)
      throws IOException {
    boolean text = writer == formats.getPrometheusTextFormatWriter();
    boolean openMetrics = writer == formats.getOpenMetricsTextFormatWriter();
    // Escaping by dots or values rewrites even plain names (every '_' doubled); headroom's names are legacy
    // names, which UTF-8 and underscore escaping leave alone, so only those two are written directly.
    boolean plainNames = escaping == EscapingScheme.ALLOW_UTF8 || escaping == EscapingScheme.UNDERSCORE_ESCAPING;
    if (headroom == null || !(text || openMetrics) || !plainNames) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(last == null ? 16 * 1024 : last.plain.length + 1024);
      writer.write(out, registry.scrape(), escaping);
      return out.toByteArray();
    }
    long now = System.nanoTime();
    OtherFamilies o = otherCache.get(key);
    if (o == null || now - o.renderedAtNanos >= othersMaxAgeNanos) {
      o = OtherFamilies.render(writer, others.scrape(), escaping, openMetrics, now);
      otherCache.put(key, o);
    }
    families.reset();
    headroom.write(families);
    try {
      return exposition.render(families, openMetrics, o);
    } finally {
      families.reset(); // drop the label arrays until the next render
    }
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
    private volatile byte[] gzipped;

    Rendered(Object state, byte[] plain) {
      this.state = state;
      this.plain = plain;
    }

    byte[] gzipped() throws IOException {
      byte[] g = gzipped;
      if (g == null) {
        synchronized (this) {
          g = gzipped;
          if (g == null) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length / 4 + 64);
            try (GZIPOutputStream z = new GZIPOutputStream(out)) {
              z.write(plain);
            }
            gzipped = g = out.toByteArray();
          }
        }
      }
      return g;
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
