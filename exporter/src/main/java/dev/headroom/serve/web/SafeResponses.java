package dev.headroom.serve.web;

import dev.headroom.serve.RateLimitedLog;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import java.io.IOException;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.List;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.slf4j.LoggerFactory;

/**
 * Response hygiene for every route: {@code X-Content-Type-Options: nosniff} and a Content-Security-Policy
 * on every response (the live page sets its own, looser one), 405 with {@code Allow} for any method but GET
 * and HEAD, and every error as {@code text/plain}, whatever the client's {@code Accept} asks for, so
 * request data quoted in an error message can never run as HTML. Errors Jetty answers itself (a malformed
 * or oversized request) are plain text too. Unexpected handler failures answer 500 and are logged through
 * a {@link RateLimitedLog}: one line a minute per kind, never a stack trace per request.
 *
 * <p>Usage, inside {@code Javalin.create(config -> ...)} before any other before-handler:
 * {@code SafeResponses.apply(config, refusals);}
 */
public final class SafeResponses {
  /** For everything but the live page: nothing may load, nothing may frame it. */
  public static final String CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
  /** Every route is read-only. */
  public static final String ALLOW = "GET, HEAD";

  private static final RateLimitedLog LOG =
      new RateLimitedLog(LoggerFactory.getLogger(SafeResponses.class), Duration.ofMinutes(1), System::nanoTime);

  private SafeResponses() {}

  /** Applies the rules to {@code config}; the requests they refuse are counted in {@code refusals}. */
  public static void apply(JavalinConfig config, Refusals refusals) {
    config.routes.before(ctx -> guard(ctx, refusals));
    config.routes.exception(HttpResponseException.class, (e, ctx) -> plain(ctx, e.getStatus(), e.getMessage()));
    config.routes.exception(Exception.class, (e, ctx) -> {
      LOG.error(e.getClass().getName(), "request " + ctx.method() + " " + ctx.path() + " failed", e);
      plain(ctx, 500, "internal error");
    });
    // Javalin's own 404 (no route) would follow Accept and answer HTML.
    config.routes.error(404, "*", ctx -> {
      String type = ctx.res().getContentType();
      if (type == null || !type.startsWith("text/plain")) {
        plain(ctx, 404, "not found");
      }
    });
    config.jetty.modifyServer(server -> server.setErrorHandler(new PlainErrorHandler(refusals)));
  }

  private static void guard(Context ctx, Refusals refusals) {
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("Content-Security-Policy", CSP);
    HandlerType m = ctx.method();
    if (m != HandlerType.GET && m != HandlerType.HEAD) {
      refusals.count(Refusals.Reason.METHOD_NOT_ALLOWED);
      ctx.header("Allow", ALLOW);
      plain(ctx, 405, "method " + m + " not allowed; every path here answers only " + ALLOW);
      ctx.skipRemainingHandlers();
    }
  }

  private static void plain(Context ctx, int status, String message) {
    ctx.status(status).contentType("text/plain; charset=utf-8").header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", CSP).result(message + "\n");
  }

  /** Jetty's error page for requests that never reach a route, forced to plain text. */
  static final class PlainErrorHandler extends ErrorHandler {
    private final Refusals refusals;

    PlainErrorHandler(Refusals refusals) {
      this.refusals = refusals;
      setShowStacks(false);
      setShowCauses(false);
      setShowOrigin(false);
    }

    @Override
    protected boolean generateAcceptableResponse(Request request, Response response, Callback callback,
        String contentType, List<Charset> charsets, int code, String message, Throwable cause) throws IOException {
      Refusals.Reason reason = Refusals.ofJettyError(code);
      if (reason != null) {
        refusals.count(reason);
      }
      response.getHeaders().put("X-Content-Type-Options", "nosniff");
      response.getHeaders().put("Content-Security-Policy", CSP);
      return super.generateAcceptableResponse(request, response, callback, "text/plain", charsets, code, message, cause);
    }
  }
}
