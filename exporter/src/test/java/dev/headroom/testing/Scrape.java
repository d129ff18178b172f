package dev.headroom.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Fetches pages of a running daemon and reads exposition text into {@code series -> value}.
 *
 * <p>Usage: {@code double v = Scrape.metrics(port).get("headroom_tunnel_up");}
 */
public final class Scrape {
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private Scrape() {}

  public static HttpResponse<String> get(int port, String path, String... headers) {
    try {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .timeout(Duration.ofSeconds(10));
      for (int i = 0; i + 1 < headers.length; i += 2) {
        b.header(headers[i], headers[i + 1]);
      }
      return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new AssertionError("GET " + path + " failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Series (name plus label text exactly as exposed) to value. */
  public static Map<String, Double> parse(String text) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (String line : text.lines().toList()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int sp = line.lastIndexOf(' ');
      out.put(line.substring(0, sp), Double.parseDouble(line.substring(sp + 1)));
    }
    return out;
  }

  public static Map<String, Double> metrics(int port) {
    HttpResponse<String> r = get(port, "/metrics");
    if (r.statusCode() != 200) {
      throw new AssertionError("/metrics answered " + r.statusCode() + ": " + r.body());
    }
    return parse(r.body());
  }
}
