package dev.headroom.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A stand-in for NetBird's management REST API on the JDK's HTTP server: the five list endpoints headroom reads,
 * answered from the JSON fixtures in {@code src/test/resources/fixtures/netbird-api} (built from the fields of
 * NetBird's schema), each replaceable by a test (another body, a status, a header, a delay). A request without
 * {@code Authorization: Token <token>} gets 401, as NetBird answers it. Every request is recorded.
 *
 * <p>Usage: {@code try (NetbirdApiStandIn api = NetbirdApiStandIn.start("nbp_x")) { api.answer("/api/peers", 500, "{}"); ... }}
 */
public final class NetbirdApiStandIn implements AutoCloseable {
  public static final Path FIXTURES = Path.of("src/test/resources/fixtures/netbird-api");
  public static final Map<String, String> FILES = Map.of("/api/networks", "networks.json",
      "/api/networks/routers", "routers.json", "/api/routes", "routes.json", "/api/peers", "peers.json",
      "/api/groups", "groups.json");

  /** What one path answers. */
  public record Answer(int status, String body, Map<String, String> headers, long delayMillis) {}

  /** One request as received. */
  public record Request(String method, String path, String authorization) {}

  private final HttpServer server;
  private final String token;
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();

  private NetbirdApiStandIn(String token) throws IOException {
    this.token = token;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "netbird-stand-in");
      t.setDaemon(true);
      return t;
    }));
    server.createContext("/", this::handle);
    reset();
  }

  public static NetbirdApiStandIn start(String token) {
    try {
      NetbirdApiStandIn s = new NetbirdApiStandIn(token);
      s.server.start();
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every path back to its fixture. */
  public void reset() {
    answers.clear();
    FILES.forEach((path, file) -> answers.put(path, new Answer(200, fixture(file), Map.of(), 0)));
  }

  public static String fixture(String file) {
    try {
      return Files.readString(FIXTURES.resolve(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public void answer(String path, int status, String body) {
    answers.put(path, new Answer(status, body, Map.of(), 0));
  }

  public void answer(String path, Answer a) {
    answers.put(path, a);
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  public List<Request> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange ex) throws IOException {
    String path = ex.getRequestURI().getPath();
    String auth = ex.getRequestHeaders().getFirst("Authorization");
    requests.add(new Request(ex.getRequestMethod(), path, auth));
    Answer a = ("Token " + token).equals(auth) ? answers.get(path) : null;
    if (a == null) {
      a = ("Token " + token).equals(auth) ? new Answer(404, "{\"message\":\"not found\",\"code\":404}", Map.of(), 0)
          : new Answer(401, "{\"message\":\"token invalid\",\"code\":401}", Map.of(), 0);
    }
    if (a.delayMillis() > 0) {
      try {
        Thread.sleep(a.delayMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
    a.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
    ex.getResponseHeaders().add("Content-Type", "application/json");
    try {
      ex.sendResponseHeaders(a.status(), body.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    } catch (IOException e) {
      // the client gave up (a timeout test): nothing to answer
    } finally {
      ex.close();
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
