package dev.headroom.serve;

import io.javalin.config.JavalinConfig;
import io.javalin.http.BadRequestResponse;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The live page's script and style, read once from the jar ({@code /web/} on the classpath) and served
 * by the daemon itself: the page works with no network beyond the peer, and sits behind the same web
 * security as every other route.
 *
 * <p>Usage: {@code LiveAssets.routes(javalinConfig);}
 */
final class LiveAssets {
  /** Only our own files: nothing from a CDN can load even if a future edit adds a link to one. */
  static final String CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:;"
      + " frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

  private static final byte[] JS = load("live.js");
  private static final byte[] CSS = load("live.css");

  private LiveAssets() {}

  static void routes(JavalinConfig config) {
    config.routes.get("/static/live.js", ctx -> asset(ctx, "text/javascript; charset=utf-8", JS));
    config.routes.get("/static/live.css", ctx -> asset(ctx, "text/css; charset=utf-8", CSS));
  }

  /** Headers for the HTML page; returns the context for {@code result(...)}. */
  static Context page(Context ctx) {
    return ctx.contentType("text/html; charset=utf-8").header("Cache-Control", "no-store")
        .header("Content-Security-Policy", CSP).header("X-Content-Type-Options", "nosniff");
  }

  /** The {@code after} query parameter of {@code /api/v1/history}: a sample sequence, -1 when absent. */
  static long after(String value) {
    if (value == null || value.isEmpty()) {
      return -1;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new BadRequestResponse("after must be a sample sequence number (an integer), got '" + value + "'");
    }
  }

  private static void asset(Context ctx, String type, byte[] body) {
    // no-cache, not no-store: the browser revalidates, so an upgraded daemon's page never runs an old script.
    ctx.contentType(type).header("Cache-Control", "no-cache").header("X-Content-Type-Options", "nosniff")
        .result(body);
  }

  private static byte[] load(String name) {
    try (InputStream in = LiveAssets.class.getResourceAsStream("/web/" + name)) {
      if (in == null) {
        throw new IllegalStateException("web asset /web/" + name + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
