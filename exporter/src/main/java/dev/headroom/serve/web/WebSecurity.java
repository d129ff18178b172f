package dev.headroom.serve.web;

import dev.headroom.serve.web.WebConfig.Tls;
import dev.headroom.serve.web.WebConfig.TlsVersion;
import io.javalin.config.JavalinConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Applies a {@link WebConfig} (TLS, mutual TLS, basic auth) and request limits to a Javalin 7 server.
 *
 * <p>Usage, inside {@code Javalin.create(config -> ...)}, before any route or other before-handler:
 *
 * <pre>{@code
 * WebConfig web = webConfigFile == null ? WebConfig.NONE : WebConfigParser.parse(webConfigFile);
 * Javalin app = Javalin.create(config -> {
 *   config.jetty.host = host;          // null or "" binds all addresses
 *   config.jetty.port = port;          // 0 picks a free port; app.port() tells which
 *   WebSecurity.apply(config, web, WebSecurity.Limits.DEFAULT, refusals); // refusals: as HeadroomMetrics's
 *   config.routes.get("/metrics", ...);
 * }).start();
 * }</pre>
 *
 * <p>It replaces Javalin's default connector with one of its own (HTTPS when {@code tls_server_config} is
 * set, else HTTP) on {@code config.jetty.host}/{@code port}, read when the server starts. Always call it,
 * with {@link WebConfig#NONE} when there is no web config file, so the limits apply to plain HTTP too.
 */
public final class WebSecurity {
  /**
   * Request limits. The defaults suit a scrape target: a few scrapers, small GET requests, one response a
   * few tens of KiB; nothing a scraper does comes near them. {@link ServerCapacity} explains how threads,
   * queue and connections fit together.
   *
   * @param idleTimeout a connection with no traffic for this long is closed (above a 15 s scrape interval,
   *     so a scraper's keep-alive connection survives between scrapes)
   * @param requestDeadline a request head (and the TLS handshake before the first) must arrive within this
   * @param maxRequestHeaderBytes larger request heads get 431
   * @param maxRequestBodyBytes larger bodies are refused (headroom takes none)
   * @param maxThreads request threads; Jetty's selector takes one of them
   * @param queueCapacity requests waiting for a thread; at least {@code maxConnections}, so it never overflows
   * @param maxConnections open connections; past it a new connection is closed as soon as it is accepted
   * @param acceptQueueSize the listen backlog: connects the kernel holds until Jetty accepts them
   * @param maxRequestsPerClient requests one address may have in flight; fewer than the serving threads,
   *     so one client never holds them all
   * @param authCacheTtl how long a bcrypt-verified password is remembered after its last use
   */
  public record Limits(
      Duration idleTimeout,
      Duration requestDeadline,
      int maxRequestHeaderBytes,
      long maxRequestBodyBytes,
      int maxThreads,
      int queueCapacity,
      int maxConnections,
      int acceptQueueSize,
      int maxRequestsPerClient,
      Duration authCacheTtl) {
    public static final Limits DEFAULT =
        new Limits(Duration.ofSeconds(20), Duration.ofSeconds(5), 8 * 1024, 64 * 1024, 6, 512, 256, 256, 4,
            Duration.ofMinutes(5));

    public Limits {
      if (queueCapacity < maxConnections) {
        throw new IllegalArgumentException("queueCapacity " + queueCapacity + " is below maxConnections "
            + maxConnections + ": with every connection sending a request, Jetty would reject some");
      }
      if (maxThreads < 3) {
        throw new IllegalArgumentException("maxThreads " + maxThreads + ": the selector takes one, at least two must serve");
      }
      if (maxRequestsPerClient < 1 || maxRequestsPerClient >= maxThreads - 1) {
        throw new IllegalArgumentException("maxRequestsPerClient " + maxRequestsPerClient
            + " must be at least 1 and below the " + (maxThreads - 1) + " serving threads");
      }
    }
  }

  private WebSecurity() {}

  /**
   * Configures {@code config}: a bounded thread pool, one connector (TLS or plain) with the limits,
   * {@link SafeResponses} and the basic auth before-handler when users are configured. Every request or
   * connection these refuse is counted in {@code refusals}. Certificate files are read now, so a broken
   * key fails here rather than at the first handshake.
   *
   * @throws WebConfigException when the certificate or key files cannot be loaded
   */
  public static void apply(JavalinConfig config, WebConfig web, Limits limits, Refusals refusals) {
    SslContextFactory.Server ssl = web.tls().map(WebSecurity::sslContextFactory).orElse(null);

    ServerCapacity.apply(config, limits, refusals);
    config.http.maxRequestSize = limits.maxRequestBodyBytes();
    config.jetty.modifyHttpConfiguration(
        http -> {
          http.setRequestHeaderSize(limits.maxRequestHeaderBytes());
          http.setSendServerVersion(false);
          http.setSendXPoweredBy(false);
          // No per-connection header cache: from a connection's second request Jetty keeps a trie of its
          // header fields, 96 KiB of char[] for the default 1,024 entries, to skip re-parsing a few short
          // lines; 64 scrapers' connections held 6.3 MiB of them (docs/benchmarks.md, "Settings that stay").
          http.setHeaderCacheSize(0);
        });
    config.jetty.addConnector((server, http) -> connector(config, server, http, ssl, limits, refusals));
    SafeResponses.apply(config, refusals);

    if (web.basicAuth()) {
      config.routes.before(new BasicAuth(web.basicAuthUsers(),
          BasicAuth.Settings.DEFAULT.withCacheTtl(limits.authCacheTtl()), System::nanoTime, refusals, Bcrypt::verify));
    }
  }

  private static ServerConnector connector(
      JavalinConfig config, Server server, HttpConfiguration http, SslContextFactory.Server ssl, Limits limits,
      Refusals refusals) {
    ServerConnector connector;
    if (ssl == null) {
      // No acceptor thread: the selector accepts, one thread fewer.
      connector = new ServerConnector(server, 0, 1, new HttpConnectionFactory(http));
    } else {
      HttpConfiguration https = new HttpConfiguration(http);
      // No SNI host check: scrapers address peers by overlay IP, which a certificate may not list;
      // verifying the name is the client's job.
      https.addCustomizer(new SecureRequestCustomizer(false, false, -1, false));
      connector =
          new ServerConnector(server, 0, 1,
              new SslConnectionFactory(ssl, "http/1.1"), new HttpConnectionFactory(https));
    }
    String host = config.jetty.host;
    connector.setHost(host == null || host.isEmpty() ? null : host);
    connector.setPort(config.jetty.port);
    ServerCapacity.configure(connector, limits, refusals);
    return connector;
  }

  private static SslContextFactory.Server sslContextFactory(Tls tls) {
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    char[] password = randomPassword();
    ssl.setKeyStore(keyStore(tls, password));
    ssl.setKeyStorePassword(new String(password));
    ssl.setIncludeProtocols(EnumSet.range(tls.minVersion(), tls.maxVersion().orElse(TlsVersion.TLS13)).stream()
        .map(v -> v.jsse).toArray(String[]::new));
    ssl.setSniRequired(false);
    ssl.setEndpointIdentificationAlgorithm(null);
    var auth = tls.clientAuth();
    ssl.setNeedClientAuth(auth.require);
    ssl.setWantClientAuth(auth.request && !auth.require);
    if (auth.verify) {
      ssl.setTrustStore(trustStore(tls.clientCaFile().orElseThrow()));
    } else if (auth.request) {
      ssl.setTrustAll(true); // RequestClientCert, RequireAnyClientCert: Go's semantics, certificate unchecked
    }
    return ssl;
  }

  private static KeyStore keyStore(Tls tls, char[] password) {
    try {
      List<X509Certificate> chain = CertificateValidity.read(tls.certFile()).chain();
      PrivateKey key = Pem.privateKey(tls.keyFile());
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry("headroom", key, password, chain.toArray(X509Certificate[]::new));
      return ks;
    } catch (IOException e) {
      throw new WebConfigException("tls_server_config.key_file: " + tls.keyFile() + ": " + e.getMessage(), e);
    } catch (GeneralSecurityException e) {
      throw new WebConfigException("tls_server_config: cannot build a key store: " + e.getMessage(), e);
    }
  }

  private static KeyStore trustStore(Path caFile) {
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      int i = 0;
      for (X509Certificate ca : Pem.certificates(caFile)) {
        ks.setCertificateEntry("client-ca-" + i++, ca);
      }
      return ks;
    } catch (IOException | GeneralSecurityException e) {
      throw new WebConfigException("tls_server_config.client_ca_file: " + caFile + ": " + e.getMessage(), e);
    }
  }

  private static char[] randomPassword() {
    byte[] b = new byte[18];
    new SecureRandom().nextBytes(b);
    return Base64.getEncoder().encodeToString(b).toCharArray();
  }
}
