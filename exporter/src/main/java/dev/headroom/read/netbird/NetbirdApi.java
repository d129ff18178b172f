package dev.headroom.read.netbird;

import dev.headroom.serve.web.Pem;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * A read-only client of NetBird's management REST API: GET requests only, the personal access token as
 * {@code Authorization: Token ...}, TLS verified against the system's CAs or {@code --netbird.ca-file}, a connect
 * and a whole-request timeout, no redirects (a redirect would carry the token to another address). Every failure
 * is an {@link ApiException} with its {@link Outcome}; neither the token nor a response body is ever put into a
 * message.
 *
 * <p>Usage: {@code String body = new NetbirdApi(URI.create("https://api.netbird.io"), token, Optional.empty(),
 * Duration.ofSeconds(10)).get(Endpoint.PEERS, "/api/peers");}
 */
public final class NetbirdApi {
  /** Longest answer used: an account of thousands of peers answers a few MiB; anything far past it is not NetBird. */
  static final int MAX_BODY_CHARS = 64 << 20;

  /** The list endpoints read, named as the {@code endpoint} label of the request counter. */
  public enum Endpoint {
    NETWORKS("/api/networks"),
    ROUTERS("/api/networks/routers"),
    ROUTES("/api/routes"),
    PEERS("/api/peers"),
    GROUPS("/api/groups");

    private final String path;
    private final String label = name().toLowerCase(Locale.ROOT);

    Endpoint(String path) {
      this.path = path;
    }

    public String path() {
      return path;
    }

    public String label() {
      return label;
    }
  }

  /** How a request ended, named as the {@code outcome} label of the request counter. */
  public enum Outcome {
    OK, UNAUTHORIZED, RATE_LIMITED, SERVER_ERROR, TIMEOUT, SCHEMA, ERROR;

    private final String label = name().toLowerCase(Locale.ROOT);

    public String label() {
      return label;
    }
  }

  /** A request that did not give a usable answer; the message names the request and why, never the token. */
  public static final class ApiException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient Outcome outcome;
    private final int status;
    private final transient Optional<Duration> retryAfter;

    ApiException(Outcome outcome, int status, Optional<Duration> retryAfter, String message) {
      super(message);
      this.outcome = outcome;
      this.status = status;
      this.retryAfter = retryAfter;
    }

    public Outcome outcome() {
      return outcome;
    }

    /** The HTTP status, or 0 when none came. */
    public int status() {
      return status;
    }

    /** What a 429's (or 503's) Retry-After asked for. */
    public Optional<Duration> retryAfter() {
      return retryAfter;
    }
  }

  private final URI base;
  private final String token;
  private final Duration timeout;
  private final HttpClient client;

  /**
   * @param base the management URL ({@code https://api.netbird.io}, or a self-hosted server's), without /api
   * @param token the personal access token (or a JWT, sent as Bearer when it looks like one)
   * @param caFile PEM certificates to trust instead of the system's, for a self-hosted server's own CA
   * @throws IOException when the CA file cannot be read
   */
  public NetbirdApi(URI base, String token, Optional<Path> caFile, Duration timeout) throws IOException {
    String b = base.toString();
    this.base = URI.create(b.endsWith("/") ? b.substring(0, b.length() - 1) : b);
    this.token = token;
    this.timeout = timeout;
    HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout)
        .followRedirects(HttpClient.Redirect.NEVER);
    if (caFile.isPresent()) {
      builder.sslContext(sslContext(caFile.get()));
    }
    this.client = builder.build();
  }

  /** A JWT (three dot-separated parts) goes as Bearer; a personal access token as Token, as NetBird documents. */
  private String authorization() {
    return (token.chars().filter(c -> c == '.').count() == 2 ? "Bearer " : "Token ") + token;
  }

  /** GETs {@code path} (below the base URL) and returns the body of a 200 answer. */
  public String get(Endpoint endpoint, String path) throws ApiException, InterruptedException {
    String what = "GET " + path;
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).GET().timeout(timeout)
        .header("Authorization", authorization()).header("Accept", "application/json")
        .header("User-Agent", "headroom-discover").build();
    HttpResponse<String> r;
    // The whole exchange, body included, within the timeout: HttpClient's own request timeout ends at the headers,
    // and a server that trickles its body would otherwise hold a refresh for ever. Only a 200's body is kept.
    CompletableFuture<HttpResponse<String>> pending = client.sendAsync(request, info -> info.statusCode() == 200
        ? HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8)
        : HttpResponse.BodySubscribers.replacing(""));
    try {
      r = pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      pending.cancel(true);
      throw new ApiException(Outcome.TIMEOUT, 0, Optional.empty(), what + ": no complete answer within "
          + seconds(timeout));
    } catch (InterruptedException e) {
      pending.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof HttpTimeoutException) {
        throw new ApiException(Outcome.TIMEOUT, 0, Optional.empty(), what + ": no answer within " + seconds(timeout));
      }
      if (c instanceof SSLException) {
        throw new ApiException(Outcome.ERROR, 0, Optional.empty(), what + ": TLS failed (" + c.getMessage()
            + "); a self-hosted server with its own CA needs --netbird.ca-file");
      }
      if (c instanceof ConnectException) {
        throw new ApiException(Outcome.ERROR, 0, Optional.empty(), what + ": cannot connect to " + base.getHost()
            + ":" + (base.getPort() < 0 ? base.getScheme() : base.getPort()));
      }
      throw new ApiException(Outcome.ERROR, 0, Optional.empty(), what + ": " + c);
    }
    int status = r.statusCode();
    if (status == 200) {
      if (r.body().length() > MAX_BODY_CHARS) {
        throw new ApiException(Outcome.ERROR, 200, Optional.empty(), what + ": answer larger than "
            + (MAX_BODY_CHARS >> 20) + " Mi characters");
      }
      return r.body();
    }
    Optional<Duration> retryAfter = r.headers().firstValue("Retry-After").flatMap(NetbirdApi::retryAfter);
    String prefix = what + ": " + status + " ";
    if (status == 401 || status == 403) {
      throw new ApiException(Outcome.UNAUTHORIZED, status, Optional.empty(), prefix
          + (status == 401 ? "Unauthorized: NetBird does not accept the token (expired, revoked or mistyped?)"
              : "Forbidden: the token's user may not read this (use a service user with the admin or auditor role)"));
    }
    if (status == 429) {
      throw new ApiException(Outcome.RATE_LIMITED, status, retryAfter, prefix + "Too Many Requests"
          + retryAfter.map(d -> ", Retry-After " + seconds(d)).orElse(""));
    }
    if (status >= 500) {
      throw new ApiException(Outcome.SERVER_ERROR, status, retryAfter, prefix + "server error");
    }
    if (status >= 300 && status < 400) {
      throw new ApiException(Outcome.ERROR, status, Optional.empty(), prefix + "redirected to "
          + r.headers().firstValue("Location").orElse("?") + "; give that address in --netbird.api-url");
    }
    throw new ApiException(Outcome.ERROR, status, Optional.empty(), prefix + "unexpected status");
  }

  /** Retry-After as seconds or as an HTTP date (RFC 9110); anything else is ignored. */
  static Optional<Duration> retryAfter(String value) {
    String v = value.strip();
    try {
      long s = Long.parseLong(v);
      return s >= 0 ? Optional.of(Duration.ofSeconds(s)) : Optional.empty();
    } catch (NumberFormatException e) {
      try {
        Duration d = Duration.between(Instant.now(), ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME));
        return Optional.of(d.isNegative() ? Duration.ZERO : d);
      } catch (RuntimeException notADate) {
        return Optional.empty();
      }
    }
  }

  static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1e3);
  }

  /**
   * Reads the token file: the whole file, surrounding whitespace stripped (editors and {@code echo} add a newline).
   *
   * @throws IOException naming the file (never its content) when it is missing, unreadable or empty
   */
  public static String readToken(Path file) throws IOException {
    String t;
    try {
      t = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IOException("--netbird.token-file " + file + ": no such file");
    } catch (java.nio.file.AccessDeniedException e) {
      throw new IOException("--netbird.token-file " + file + ": permission denied");
    } catch (IOException e) {
      throw new IOException("--netbird.token-file " + file + ": cannot read (" + e.getClass().getSimpleName() + ")");
    }
    if (t.isEmpty()) {
      throw new IOException("--netbird.token-file " + file + ": empty");
    }
    if (t.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
      throw new IOException("--netbird.token-file " + file + ": holds more than one token (whitespace or"
          + " control characters inside)");
    }
    return t;
  }

  private static SSLContext sslContext(Path caFile) throws IOException {
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      int i = 0;
      for (X509Certificate ca : Pem.certificates(caFile)) {
        ks.setCertificateEntry("netbird-ca-" + i++, ca);
      }
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ks);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    } catch (IOException e) {
      throw new IOException("--netbird.ca-file " + caFile + ": " + e.getMessage(), e);
    } catch (GeneralSecurityException e) {
      throw new IOException("--netbird.ca-file " + caFile + ": cannot build a trust store: " + e.getMessage(), e);
    }
  }
}
