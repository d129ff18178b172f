package dev.headroom.read.wg;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads NetBird's opt-in local Prometheus endpoint ({@code netbird up --enable-local-metrics}) and parses it. Any
 * failure gives {@link Optional#empty()}: the endpoint not enabled or the daemon down (connection refused), an
 * HTTP error, no answer within the timeout, or a page headroom cannot read. Each distinct problem is logged once,
 * not every sample; {@link #lastProblem()} keeps it for a status page or a {@code source_up} metric.
 *
 * <p>Unlike {@code netbird status --json} ({@link NetbirdStatusReader}), the endpoint answers from the daemon's
 * in-memory state without probing STUN/TURN servers, so it is cheap; it has no byte counters, though. Not
 * thread-safe: one thread calls it.
 *
 * <p>Usage: {@code new NetbirdMetricsReader(NetbirdMetricsReader.DEFAULT_URI, Duration.ofSeconds(2)).read()
 * .ifPresent(m -> ...);}
 */
public final class NetbirdMetricsReader {

  private static final Logger LOG = LoggerFactory.getLogger(NetbirdMetricsReader.class);

  /** NetBird's {@code localmetrics.DefaultListenAddress} ({@code 127.0.0.1:9191}) and the path it serves. */
  public static final URI DEFAULT_URI = URI.create("http://127.0.0.1:9191/metrics");

  /**
   * Asked for explicitly so client_golang's content negotiation keeps answering in this format even if a later
   * NetBird turns on OpenMetrics or protobuf, which a Prometheus-like Accept header would get.
   */
  static final String ACCEPT = "text/plain;version=0.0.4";

  private final URI uri;
  private final Duration timeout;
  private final ProblemLog problems = new ProblemLog(LOG);

  /**
   * @param uri the endpoint, {@link #DEFAULT_URI} unless NetBird was given {@code --local-metrics-address}
   *     (see {@link #uriForListenAddress})
   * @param timeout how long connecting and then answering may each take, above zero
   */
  public NetbirdMetricsReader(URI uri, Duration timeout) {
    this.uri = uri;
    this.timeout = timeout;
  }

  /**
   * The URL to scrape for a NetBird {@code --local-metrics-address} (a Go listen address, {@code host:port}):
   * a wildcard or empty host means this host, reached on loopback; an empty address is NetBird's default.
   *
   * @throws IllegalArgumentException no {@code :port}, or a port that is not 1-65535
   */
  public static URI uriForListenAddress(String listenAddress) {
    String a = listenAddress == null ? "" : listenAddress.strip();
    if (a.isEmpty()) {
      // NetBird's Manager.Reconcile falls back to its default for an empty address.
      return DEFAULT_URI;
    }
    int colon = a.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("NetBird's local metrics address '" + a + "' has no :port");
    }
    String host = a.substring(0, colon);
    String port = a.substring(colon + 1);
    int p;
    try {
      p = Integer.parseInt(port);
    } catch (NumberFormatException e) {
      p = -1;
    }
    if (p < 1 || p > 65535) {
      throw new IllegalArgumentException("NetBird's local metrics address '" + a + "' has port '" + port
          + "', expected 1-65535");
    }
    if (host.isEmpty() || host.equals("0.0.0.0")) {
      host = "127.0.0.1";
    } else if (host.equals("[::]") || host.equals("::")) {
      host = "[::1]";
    } else if (host.contains(":") && !host.startsWith("[")) {
      host = "[" + host + "]";
    }
    return URI.create("http://" + host + ":" + p + "/metrics");
  }

  /**
   * The metrics, or empty when the endpoint is off, failing or unreadable.
   *
   * <p>Read with {@link HttpURLConnection}, not {@code java.net.http.HttpClient}: a plain-HTTP GET to this host
   * needs neither HTTP/2 nor TLS, and that client sets up both when it is built, TLS's default context and trust
   * store included, which every peer would pay in steady RSS, NetBird's endpoint enabled or not (the figure is in
   * docs/benchmarks.md).
   */
  public Optional<NetbirdMetrics> read() {
    int status;
    String body;
    try {
      // No proxy: the endpoint is on this host (or one reached directly), and a proxy from the environment must
      // not see it. No redirects: an answer other than the page is a problem to report.
      HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
      int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()); // a --netbird.interval of weeks still fits
      c.setConnectTimeout(ms);
      c.setReadTimeout(ms);
      c.setInstanceFollowRedirects(false);
      c.setRequestProperty("Accept", ACCEPT);
      try {
        c.connect();
      } catch (SocketTimeoutException e) {
        return problems.failed("no connection to NetBird's local metrics at " + uri + " within " + timeout.toMillis() + " ms",
            false);
      }
      status = c.getResponseCode();
      try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
        body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } catch (SocketTimeoutException e) {
      return problems.failed("NetBird's local metrics at " + uri + " did not answer within " + timeout.toMillis() + " ms",
          false);
    } catch (ConnectException e) {
      // The usual state of a peer that never opted in, hence quiet, like NetBird not being installed.
      return problems.failed("NetBird's local metrics are not enabled (netbird up --enable-local-metrics): connection to "
          + uri + " refused (or the NetBird daemon is not running)", true);
    } catch (IOException e) {
      return problems.failed("cannot read NetBird's local metrics at " + uri + ": "
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), false);
    }
    if (status != 200) {
      // client_golang answers a failed gather with 500 and the Go error a few lines down; show all of it, short.
      String shown = summary(body);
      return problems.failed("NetBird's local metrics at " + uri + " answered HTTP " + status
          + (shown.isEmpty() ? "" : ": " + shown), false);
    }
    try {
      NetbirdMetrics m = NetbirdMetricsParser.parse(body);
      problems.ok("NetBird's local metrics at " + uri + " readable again");
      return Optional.of(m);
    } catch (IllegalArgumentException e) {
      return problems.failed("cannot read NetBird's local metrics at " + uri + ": " + e.getMessage(), false);
    }
  }

  /** Why the last {@link #read()} came back empty; empty after a successful read. */
  public Optional<String> lastProblem() {
    return problems.last();
  }

  /** The body's non-blank lines on one line, at most 200 characters. */
  private static String summary(String body) {
    String t = String.join(" ", body.lines().map(String::strip).filter(l -> !l.isEmpty()).toList());
    return t.length() <= 200 ? t : t.substring(0, 200) + "...";
  }
}
