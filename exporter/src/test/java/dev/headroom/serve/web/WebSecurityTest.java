package dev.headroom.serve.web;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javalin.Javalin;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real Javalin on a free loopback port, real TLS clients, certificates made by openssl. */
class WebSecurityTest {
  /** bcrypt of "secret", cost 4 (htpasswd -nbB -C 4). */
  static final String SECRET_HASH = "$2y$04$..rQpyWFaYj7eJyNmTpEBefxDd76yj8a4nC9qkuVsDWjCE7th8Rr.";
  /**
   * A request deadline short enough that slow-loris tests end well within {@link #BOUND_SECONDS}, and long
   * enough that the ordinary scrapes beside them are never cut: the first deadline of a connection covers its
   * TLS handshake, which on a starved 2-core host (load 15 and more) has taken over 3 s. An idle timeout far
   * longer, so a connection closed well before it was closed by the deadline.
   */
  static final WebSecurity.Limits LIMITS =
      new WebSecurity.Limits(Duration.ofSeconds(60), Duration.ofSeconds(8), 8 * 1024, 64 * 1024, 6, 128, 64, 64, 2,
          Duration.ofMinutes(1));
  /** Generous bound for anything the server must do "soon"; well below the 60 s idle timeout. */
  static final long BOUND_SECONDS = 20;

  @TempDir static Path dir;
  static TestPki pki;
  Javalin app;

  @BeforeAll
  static void pki() throws Exception {
    pki = new TestPki(dir);
  }

  @AfterEach
  void stop() {
    if (app != null) {
      app.stop();
    }
  }

  private int start(WebConfig web) {
    app =
        Javalin.create(
                c -> {
                  c.jetty.host = "127.0.0.1";
                  c.jetty.port = 0;
                  WebSecurity.apply(c, web, LIMITS, new Refusals());
                  c.routes.get("/metrics", ctx -> ctx.result("headroom_build_info 1\n"));
                })
            .start();
    return app.port();
  }

  private static WebConfig tls(WebConfig.ClientAuth auth, Map<String, String> users) {
    return new WebConfig(
        Optional.of(
            new WebConfig.Tls(pki.file("server.crt"), pki.file("server.key"), auth,
                auth.verify ? Optional.of(pki.file("ca.crt")) : Optional.empty(),
                WebConfig.TlsVersion.TLS12, Optional.empty())),
        users);
  }

  private static HttpClient client(SSLContext ssl) {
    HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10));
    return ssl == null ? b.build() : b.sslContext(ssl).build();
  }

  private static HttpResponse<String> get(HttpClient client, String url, String... headers) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(BOUND_SECONDS));
    if (headers.length > 0) {
      r.headers(headers);
    }
    return client.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(UTF_8));
  }

  @Test
  void basicAuthOverTlsAdmitsTheRightPasswordOnly() throws Exception {
    int port = start(tls(WebConfig.ClientAuth.NoClientCert, Map.of("prometheus", SECRET_HASH)));
    HttpClient c = client(pki.clientContext(null));
    String url = "https://127.0.0.1:" + port + "/metrics";

    HttpResponse<String> ok = get(c, url, "Authorization", basic("prometheus", "secret"));
    assertEquals(200, ok.statusCode());
    assertEquals("headroom_build_info 1\n", ok.body());

    for (String[] h :
        new String[][] {
          {"Authorization", basic("prometheus", "wrong")},
          {"Authorization", basic("nobody", "secret")},
          {"Authorization", "Bearer secret"},
          {"Authorization", "Basic !!!not-base64"},
        }) {
      HttpResponse<String> denied = get(c, url, h);
      assertEquals(401, denied.statusCode(), h[1]);
      assertEquals(Optional.of(BasicAuth.CHALLENGE), denied.headers().firstValue("WWW-Authenticate"));
      assertFalse(denied.body().contains("headroom_build_info"));
    }
    HttpResponse<String> missing = get(c, url);
    assertEquals(401, missing.statusCode());
    assertTrue(missing.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic "));
    // Unrouted paths are guarded too (no 404 leaks which paths exist).
    assertEquals(401, get(c, "https://127.0.0.1:" + port + "/nope").statusCode());
  }

  @Test
  void basicAuthWorksOnPlainHttpToo() throws Exception {
    int port = start(new WebConfig(Optional.empty(), Map.of("prometheus", SECRET_HASH)));
    HttpClient c = client(null);
    String url = "http://127.0.0.1:" + port + "/metrics";
    assertEquals(200, get(c, url, "Authorization", basic("prometheus", "secret")).statusCode());
    assertEquals(401, get(c, url).statusCode());
  }

  @Test
  void plainHttpIsRefusedOnTheTlsPort() throws Exception {
    int port = start(tls(WebConfig.ClientAuth.NoClientCert, Map.of()));
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
      s.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(UTF_8));
      String answer = readUntilClosed(s.getInputStream());
      assertFalse(answer.contains("headroom_build_info"), answer);
      assertFalse(answer.startsWith("HTTP/1.1 200"), answer);
    }
    assertThrows(IOException.class, () -> get(client(null), "http://127.0.0.1:" + port + "/metrics"));
    // ... while HTTPS on the same port works.
    assertEquals(200, get(client(pki.clientContext(null)), "https://127.0.0.1:" + port + "/metrics").statusCode());
  }

  @Test
  void mutualTlsAdmitsOnlyCurrentCertificatesFromTheClientCa() throws Exception {
    int port = start(tls(WebConfig.ClientAuth.RequireAndVerifyClientCert, Map.of()));
    String url = "https://127.0.0.1:" + port + "/metrics";

    assertEquals(200, get(client(pki.clientContext("client")), url).statusCode());
    for (String refused : new String[] {null, "client-expired", "client-other"}) {
      HttpClient c = client(pki.clientContext(refused));
      assertThrows(IOException.class, () -> get(c, url), "client certificate " + refused + " must be refused");
    }
  }

  @Test
  void verifyIfGivenAdmitsNoCertificateButNotABadOne() throws Exception {
    int port = start(tls(WebConfig.ClientAuth.VerifyClientCertIfGiven, Map.of()));
    String url = "https://127.0.0.1:" + port + "/metrics";
    assertEquals(200, get(client(pki.clientContext(null)), url).statusCode());
    assertEquals(200, get(client(pki.clientContext("client")), url).statusCode());
    HttpClient wrongCa = client(pki.clientContext("client-other"));
    assertThrows(IOException.class, () -> get(wrongCa, url));
  }

  @Test
  void tls13OnlyRefusesTls12Clients() throws Exception {
    WebConfig web =
        new WebConfig(
            Optional.of(
                new WebConfig.Tls(pki.file("server-ec.crt"), pki.file("server-ec.key"), WebConfig.ClientAuth.NoClientCert,
                    Optional.empty(), WebConfig.TlsVersion.TLS13, Optional.empty())),
            Map.of());
    int port = start(web);
    SSLContext ctx = pki.clientContext(null);
    try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port)) {
      s.setEnabledProtocols(new String[] {"TLSv1.2"});
      s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
      assertThrows(IOException.class, s::startHandshake);
    }
    try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port)) {
      s.startHandshake();
      assertEquals("TLSv1.3", s.getSession().getProtocol());
    }
  }

  @Test
  void slowLorisIsCutOffWhileANormalScrapeSucceeds() throws Exception {
    int port = start(tls(WebConfig.ClientAuth.NoClientCert, Map.of()));
    SSLContext ctx = pki.clientContext(null);
    // Its own thread: the common pool has one thread on two cores and the JDK HttpClient uses it too.
    ExecutorService trickler = Executors.newSingleThreadExecutor();
    try (SSLSocket loris = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port)) {
      loris.setSoTimeout((int) TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
      loris.startHandshake();
      OutputStream out = loris.getOutputStream();
      out.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(UTF_8));
      out.flush();
      // One header byte every 100 ms: the idle timeout never fires on this.
      CompletableFuture<Boolean> cutOff =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  for (int i = 0; i < BOUND_SECONDS * 10; i++) {
                    out.write('a');
                    out.flush();
                    Thread.sleep(100);
                  }
                  return false;
                } catch (IOException e) {
                  return true;
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return false;
                }
              },
              trickler);

      HttpResponse<String> scrape = get(client(ctx), "https://127.0.0.1:" + port + "/metrics");
      assertEquals(200, scrape.statusCode(), "a scrape succeeds while the slow request trickles");

      assertTrue(cutOff.get(BOUND_SECONDS + 5, TimeUnit.SECONDS), "the trickling connection was closed by the server");
      assertFalse(readUntilClosed(loris.getInputStream()).contains("headroom_build_info"));
    } finally {
      trickler.shutdownNow();
    }
  }

  @Test
  void aConnectionThatNeverSpeaksIsClosedBeforeTheIdleTimeout() throws Exception {
    int port = start(tls(WebConfig.ClientAuth.NoClientCert, Map.of()));
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port));
      s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
      try {
        assertEquals(-1, s.getInputStream().read(), "closed by the server");
      } catch (SocketTimeoutException e) {
        throw new AssertionError("a silent connection was still open after " + BOUND_SECONDS + " s", e);
      } catch (IOException e) {
        // connection reset: also closed by the server
      }
    }
  }

  @Test
  void oversizedHeaderIsRefusedAndServiceContinues() throws Exception {
    int port = start(WebConfig.NONE);
    String url = "http://127.0.0.1:" + port + "/metrics";
    HttpClient c = client(null);
    int status;
    try {
      status = get(c, url, "X-Padding", "p".repeat(16 * 1024)).statusCode();
    } catch (IOException e) {
      status = -1; // the server may also just close the connection
    }
    assertTrue(status == 431 || status == 400 || status == -1, "oversized header got " + status);
    assertEquals(200, get(c, url).statusCode());
    assertEquals(200, get(c, url, "X-Small", "p".repeat(1024)).statusCode(), "ordinary headers pass");
  }

  @Test
  void listenAddressGivenToStartIsHonoured() throws Exception {
    // dev.headroom.serve.HttpServer passes the address to start(host, port), after apply() ran.
    app = Javalin.create(c -> WebSecurity.apply(c, WebConfig.NONE, LIMITS, new Refusals())).start("127.0.0.1", 0);
    assertTrue(app.port() > 0, "bound to a real port: " + app.port());
    var connectors = app.jettyServer().server().getConnectors();
    assertEquals(1, connectors.length, "our connector replaces Javalin's default");
    assertEquals("127.0.0.1", ((org.eclipse.jetty.server.ServerConnector) connectors[0]).getHost());
  }

  @Test
  void everyResponseIsPlainOrCarriesNosniffAndCspAndOtherMethodsGet405WithAllow() throws Exception {
    int port = start(WebConfig.NONE);
    HttpClient c = client(null);
    String base = "http://127.0.0.1:" + port;
    HttpResponse<String> ok = get(c, base + "/metrics");
    assertEquals("nosniff", ok.headers().firstValue("X-Content-Type-Options").orElse(""));
    assertTrue(ok.headers().firstValue("Content-Security-Policy").orElse("").contains("default-src 'none'"));
    HttpResponse<String> missing = get(c, base + "/%3Cscript%3E", "Accept", "text/html");
    assertEquals(404, missing.statusCode());
    assertTrue(missing.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"),
        "a browser asking for HTML still gets plain text");
    for (String method : new String[] {"POST", "PUT", "DELETE", "OPTIONS", "TRACE"}) {
      HttpResponse<String> r = c.send(HttpRequest.newBuilder(URI.create(base + "/metrics"))
          .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(405, r.statusCode(), method);
      assertEquals("GET, HEAD", r.headers().firstValue("Allow").orElse(""), method);
    }
  }

  @Test
  void limitsWhoseQueueCannotHoldEveryConnectionAreRefused() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> new WebSecurity.Limits(Duration.ofSeconds(20), Duration.ofSeconds(5), 8192, 65536, 6, 32, 64, 64, 4,
            Duration.ofMinutes(5)));
    assertTrue(e.getMessage().contains("queueCapacity 32 is below maxConnections 64"), e.getMessage());
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> new WebSecurity.Limits(Duration.ofSeconds(20), Duration.ofSeconds(5), 8192, 65536, 6, 64, 64, 64, 5,
            Duration.ofMinutes(5)), "one client may not hold every serving thread");
  }

  @Test
  void threadPoolIsBounded() {
    start(WebConfig.NONE);
    QueuedThreadPool pool = assertInstanceOf(QueuedThreadPool.class, app.jettyServer().server().getThreadPool());
    assertEquals(LIMITS.maxThreads(), pool.getMaxThreads());
  }

  @Test
  void buildingTheServerStartsNoPlatformMBeanServer() {
    start(WebConfig.NONE);
    assertEquals(List.of(), MBeanServerFactory.findMBeanServer(null),
        "Jetty started the platform MBean server (about 200 JMX classes) to size its queue's padding");
  }

  @Test
  void connectionsKeepNoHeaderFieldCache() {
    start(WebConfig.NONE);
    ServerConnector connector = assertInstanceOf(ServerConnector.class, app.jettyServer().server().getConnectors()[0]);
    assertEquals(0, connector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration().getHeaderCacheSize(),
        "each keep-alive connection would hold a 96 KiB header trie");
  }

  @Test
  void parsedConfigFileDrivesTheServer() throws Exception {
    Path f = dir.resolve("web.yml");
    Files.writeString(
        f,
        """
        tls_server_config:
          cert_file: server-ec.crt
          key_file: server-ec.key
          client_auth_type: RequireAndVerifyClientCert
          client_ca_file: ca.crt
        basic_auth_users:
          prometheus: %s
        """.formatted(SECRET_HASH));
    int port = start(WebConfigParser.parse(f));
    HttpClient c = client(pki.clientContext("client"));
    String url = "https://127.0.0.1:" + port + "/metrics";
    assertEquals(200, get(c, url, "Authorization", basic("prometheus", "secret")).statusCode());
    assertEquals(401, get(c, url).statusCode());
  }

  private static String readUntilClosed(InputStream in) throws IOException {
    try {
      return new String(in.readAllBytes(), UTF_8);
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server kept the connection open for " + BOUND_SECONDS + " s", e);
    } catch (IOException e) {
      return ""; // reset or TLS alert: refused
    }
  }

  @Test
  void anExpiredCertificateIsReportedWithItsExpiry() {
    CertificateValidity v = CertificateValidity.read(pki.file("client-expired.crt"));
    assertEquals(Instant.parse("2020-01-02T00:00:00Z"), v.expiry());
    List<String> problems = v.problems(Instant.now());
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).contains("expired at 2020-01-02T00:00:00Z"), problems.get(0));
  }

  @Test
  void aCertificateNotYetValidIsReported() {
    CertificateValidity v = CertificateValidity.read(pki.file("client-expired.crt"));
    List<String> problems = v.problems(Instant.parse("2019-06-01T00:00:00Z"));
    assertEquals(1, problems.size(), problems.toString());
    assertTrue(problems.get(0).contains("not valid until 2020-01-01T00:00:00Z"), problems.get(0));
  }

  @Test
  void aCurrentCertificateHasNoProblemAndExpiresWhenItSays() throws Exception {
    CertificateValidity v = CertificateValidity.read(pki.file("server.crt"));
    assertEquals(List.of(), v.problems(Instant.now()));
    assertEquals(Pem.certificates(pki.file("server.crt")).get(0).getNotAfter().toInstant(), v.expiry());
  }
}
