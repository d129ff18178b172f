package dev.headroom.serve.web;

import dev.headroom.serve.RateLimitedLog;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.LoggerFactory;

/**
 * Caps the requests one client address has in flight; past the cap a request is answered 503 with
 * {@code Retry-After} before any route runs (no render, no password hash). One client hammering
 * {@code /metrics} over many connections then holds at most {@code max} request threads, and the task
 * queue ahead of another client's scrape drains at the speed of that cheap refusal, not of a render.
 * IPv6 clients are grouped by /64, like {@link FailureLimiter}. The live page's static assets are
 * exempt: a browser loads them in parallel and they cost a copy of a few KiB. Jetty's ThreadLimitHandler
 * holds requests past its per-address limit until one finishes, and QoSHandler's limit is server-wide.
 *
 * <p>Usage: {@code config.jetty.modifyServer(s -> s.setHandler(new ClientLimit(4, refusals)))}; Javalin puts its own
 * handler inside.
 */
final class ClientLimit extends Handler.Wrapper {
  private static final RateLimitedLog LOG =
      new RateLimitedLog(LoggerFactory.getLogger(ClientLimit.class), Duration.ofMinutes(1), System::nanoTime);

  private final int max;
  private final Refusals refusals;
  private final ConcurrentHashMap<String, Integer> inFlight = new ConcurrentHashMap<>();

  /** {@code max}: at least 1, as {@link WebSecurity.Limits} checks. */
  ClientLimit(int max, Refusals refusals) {
    this.refusals = refusals;
    this.max = max;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (Request.getPathInContext(request).startsWith("/static/")) {
      return super.handle(request, response, callback);
    }
    String client = FailureLimiter.key(Request.getRemoteAddr(request));
    if (inFlight.merge(client, 1, Integer::sum) > max) {
      release(client);
      refusals.count(Refusals.Reason.CLIENT_LIMIT);
      LOG.warn("limit", "client " + client + " already has " + max + " requests in flight; answering 503", null);
      response.setStatus(503);
      response.getHeaders().put("Retry-After", "1");
      response.getHeaders().put("Content-Type", "text/plain; charset=utf-8");
      response.getHeaders().put("X-Content-Type-Options", "nosniff");
      response.getHeaders().put("Content-Security-Policy", SafeResponses.CSP);
      Content.Sink.write(response, true, "too many requests in flight from this address; retry shortly\n", callback);
      return true;
    }
    boolean handled = false;
    try {
      handled = super.handle(request, response, Callback.from(callback, () -> release(client)));
      return handled;
    } finally {
      if (!handled) {
        release(client);
      }
    }
  }

  private void release(String client) {
    inFlight.computeIfPresent(client, (k, n) -> n <= 1 ? null : n - 1);
  }
}
