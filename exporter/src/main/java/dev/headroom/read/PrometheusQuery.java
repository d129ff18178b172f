package dev.headroom.read;

import dev.headroom.json.Json;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * A minimal client for Prometheus's instant query API ({@code GET /api/v1/query}) that expects one number back:
 * an empty result is {@code OptionalDouble.empty()}, more than one series is an error (the query should have
 * aggregated). No authentication; {@code http} and {@code https} URLs, with an optional path prefix.
 *
 * <p>Usage: {@code OptionalDouble v = new PrometheusQuery(PrometheusQuery.baseUri("http://prom:9090")).single("up")}
 */
public final class PrometheusQuery {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  /** A 7-day subquery at 1-minute steps over many peers takes Prometheus a while. */
  static final Duration QUERY_TIMEOUT = Duration.ofSeconds(60);

  private final URI base;
  private final HttpClient client;

  /** Prometheus unreachable, an error answer, or an answer that is not one number. */
  public static final class QueryException extends Exception {
    private static final long serialVersionUID = 1L;

    QueryException(String message) {
      super(message);
    }
  }

  public PrometheusQuery(URI base) {
    this.base = base;
    this.client = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NORMAL)
        .build();
  }

  /**
   * Checks a Prometheus base URL ({@code http://host:9090}, {@code https://host/prometheus}); a trailing slash is
   * dropped so {@code /api/v1/query} can be appended.
   */
  public static URI baseUri(String url) {
    String u = url.trim();
    while (u.endsWith("/")) {
      u = u.substring(0, u.length() - 1);
    }
    URI uri;
    try {
      uri = new URI(u);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a URL: '" + url + "' (" + e.getReason() + ")");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException("needs an http:// or https:// URL, got '" + url + "'");
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw new IllegalArgumentException("no host in '" + url + "'");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException("give only scheme, host, port and path prefix, got '" + url + "'");
    }
    return uri;
  }

  /** Runs an instant query at the server's current time and returns its single value, if any. */
  public OptionalDouble single(String promql) throws QueryException {
    URI uri = URI.create(base + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(QUERY_TIMEOUT)
        .header("Accept", "application/json").GET().build();
    HttpResponse<String> response;
    try {
      response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpConnectTimeoutException e) {
      throw new QueryException("cannot reach Prometheus at " + base + ": no connection within "
          + CONNECT_TIMEOUT.toSeconds() + " s");
    } catch (HttpTimeoutException e) {
      throw new QueryException("Prometheus at " + base + " did not answer within " + QUERY_TIMEOUT.toSeconds()
          + " s (a shorter --window is cheaper)");
    } catch (ConnectException e) {
      throw new QueryException("cannot reach Prometheus at " + base + ": connection refused");
    } catch (IOException e) {
      throw new QueryException("cannot reach Prometheus at " + base + ": "
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QueryException("interrupted while asking Prometheus at " + base);
    }
    return parse(response.statusCode(), response.body(), base.toString());
  }

  /**
   * Reads an instant-query answer: {@code {"status":"success","data":{"resultType":"vector","result":[...]}}} or
   * {@code {"status":"error","errorType":...,"error":...}}. Values come as strings, including {@code "NaN"} and
   * {@code "+Inf"}, and are returned as such.
   */
  static OptionalDouble parse(int httpStatus, String body, String where) throws QueryException {
    Answer head;
    try {
      head = Json.read(Answer.class, body);
    } catch (IllegalArgumentException e) {
      throw new QueryException("the server at " + where + " did not answer like Prometheus (HTTP " + httpStatus
          + ", " + (body.isBlank() ? "empty body" : "not JSON") + "); is the URL Prometheus's base URL?");
    }
    if ("error".equals(head.status())) {
      String type = head.errorType();
      throw new QueryException("Prometheus at " + where + " refused the query (HTTP " + httpStatus
          + (type != null && !type.isEmpty() ? ", " + type : "") + "): " + head.error());
    }
    if (!"success".equals(head.status()) || head.data() == null) {
      throw new QueryException("the server at " + where + " did not answer like Prometheus (HTTP " + httpStatus
          + ", no \"status\":\"success\" with \"data\")");
    }
    String type = head.data().resultType();
    try {
      if ("scalar".equals(type)) {
        return OptionalDouble.of(number(Json.read(Scalars.class, body).data().result(), where));
      }
      if (!"vector".equals(type)) {
        throw new QueryException("Prometheus at " + where + " returned a " + type + ", expected an instant vector");
      }
      List<Series> list = Json.read(Vectors.class, body).data().result();
      if (list == null || list.isEmpty()) {
        return OptionalDouble.empty();
      }
      if (list.size() > 1) {
        throw new QueryException("Prometheus at " + where + " returned " + list.size() + " series, expected one");
      }
      return OptionalDouble.of(number(list.get(0).value(), where));
    } catch (IllegalArgumentException e) {
      throw new QueryException("Prometheus at " + where + " returned a malformed answer: " + e.getMessage());
    }
  }

  /** An instant-query answer, read twice: first its status and result type, then the result of that type. */
  record Answer(String status, String errorType, String error, Head data) {}

  record Head(String resultType) {}

  record Scalars(Scalar data) {}

  record Vectors(Vector data) {}

  /** {@code [<unix time>, "<value>"]}. */
  record Scalar(List<Object> result) {}

  record Vector(List<Series> result) {}

  record Series(List<Object> value) {}

  /** A {@code [<unix time>, "<value>"]} pair's value. */
  private static double number(List<Object> pair, String where) throws QueryException {
    if (pair != null && pair.size() == 2 && pair.get(1) instanceof String s) {
      try {
        return Double.parseDouble(s.replace("Inf", "Infinity"));
      } catch (NumberFormatException e) {
        // fall through to the error below
      }
    }
    throw new QueryException("Prometheus at " + where + " returned a malformed value: " + pair);
  }
}
