package dev.headroom.cmd;

import dev.headroom.config.CeilingSettings;
import dev.headroom.config.Quantities;
import dev.headroom.json.Json;
import dev.headroom.judge.CostModel;
import dev.headroom.judge.PeerShape;
import dev.headroom.judge.StateFile;
import dev.headroom.judge.Units;
import dev.headroom.read.Datapath;
import dev.headroom.sample.Direction;
import dev.headroom.judge.Sizing;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The cost per packet a peer learned, for {@code headroom size}: from the daemon's state file (its running sums,
 * judged as the daemon judges them) or from a running daemon's {@code /api/v1/status}. Either way it is refused,
 * with the reason, until the daemon itself would use it.
 *
 * <p>Usage: {@code LearnedCost c = LearnedCost.fromState(Path.of("/var/lib/headroom")); c.cost();}
 *
 * @param cost     the estimate, usable
 * @param datapath the datapath it was learned on
 * @param from     where it came from, in words
 */
record LearnedCost(CostModel.Estimate cost, Datapath datapath, String from) {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  /** From the state file in the daemon's {@code --path.state} directory. */
  static LearnedCost fromState(Path dir) throws IOException {
    Path file = dir.resolve(StateFile.NAME);
    StateFile.Contents c = StateFile.read(file).orElseThrow(() -> new IOException("no state file " + file
        + ": give the daemon's --path.state directory, once the daemon has carried load there"));
    PeerShape shape = c.shape();
    if (shape == null || c.cost().w() <= 0) {
      throw new IOException("state file " + file + " holds no cost yet: the daemon has not carried load long enough");
    }
    int cores = (int) Math.ceil(shape.usableCores());
    Duration after = Quantities.durationOrZero(CeilingSettings.DEFAULT_COST_AFTER);
    CostModel.Estimate e = new CostModel(after, c.cost())
        .estimate(Sizing.restingPeer(shape.datapath(), cores, shape.tunnelMtu()));
    if (!e.usable()) {
      throw new IOException("the cost in " + file + " is not learned yet: " + switch (e.shortfall()) {
        case SCATTERED -> "its CPU scatters too far around any cost (±" + Units.pct(e.fitError()) + ", at most ±"
            + Units.pct(CostModel.MAX_FIT_ERROR) + ")";
        default -> "it rests on " + Units.durationText(e.seconds()) + " of load, the daemon uses it after "
            + Units.durationText(e.neededSeconds());
      });
    }
    return new LearnedCost(e, shape.datapath(), "state file " + file);
  }

  /** From a running daemon's status at {@code base} ({@code /api/v1/status} is appended). */
  static LearnedCost fromStatus(URI base) throws IOException {
    URI uri = URI.create(base + "/api/v1/status");
    String body;
    try {
      HttpResponse<String> r = HttpClient.newBuilder().connectTimeout(TIMEOUT)
          .followRedirects(HttpClient.Redirect.NORMAL).build()
          .send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(),
              HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      if (r.statusCode() != 200) {
        throw new IOException(uri + " answered HTTP " + r.statusCode());
      }
      body = r.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking " + uri);
    } catch (IOException e) {
      throw e.getMessage() != null && e.getMessage().startsWith(uri.toString()) ? e
          : new IOException("cannot read " + uri + ": " + (e.getMessage() == null ? e.getClass().getSimpleName()
              : e.getMessage()));
    }
    Map<String, Object> root;
    try {
      root = Json.tree(body);
    } catch (Json.JsonException e) {
      throw new IOException(uri + " is not a headroom status (not JSON: " + e.getMessage() + ")");
    }
    Map<String, Object> thisCpu = object(root, "this_cpu", uri);
    Map<String, Object> cost = object(root, "cost", uri);
    if (!Boolean.TRUE.equals(thisCpu.get("learned"))) {
      throw new IOException("the daemon at " + base + " has not learned its cost yet (cost.why: " + cost.get("why")
          + ", " + Units.durationText(number(cost, "seconds", uri)) + " of load so far)");
    }
    Datapath dp;
    try {
      dp = Datapath.valueOf(String.valueOf(object(root, "tunnel", uri).get("datapath")).toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IOException(uri + ": tunnel.datapath is not a datapath");
    }
    Map<Direction, Double> perPacket = new EnumMap<>(Direction.class);
    for (Direction d : Direction.values()) {
      perPacket.put(d, number(object(cost, d.label(), uri), "cpu_seconds_per_packet", uri));
    }
    CostModel.Estimate e = new CostModel.Estimate(CostModel.Shortfall.NONE, perPacket,
        Boolean.TRUE.equals(cost.get("directions_apart")), number(cost, "reference_decrypt_encrypt_ratio", uri),
        number(cost, "fixed_cores", uri), number(cost, "seconds", uri), number(cost, "needed_seconds", uri),
        number(cost, "fit_error", uri), number(cost, "mean_cores", uri), Map.of());
    return new LearnedCost(e, dp, "status of " + base);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(Map<String, Object> m, String key, URI uri) throws IOException {
    if (!(m.get(key) instanceof Map<?, ?> v)) {
      throw new IOException(uri + " has no " + key + " object: is it a headroom daemon of this version?");
    }
    return (Map<String, Object>) v;
  }

  private static double number(Map<String, Object> m, String key, URI uri) throws IOException {
    if (!(m.get(key) instanceof Number n)) {
      throw new IOException(uri + ": " + key + " is not a number");
    }
    return n.doubleValue();
  }
}
