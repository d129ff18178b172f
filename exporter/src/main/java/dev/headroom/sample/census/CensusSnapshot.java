package dev.headroom.sample.census;

import dev.headroom.read.wg.Connection;
import dev.headroom.sample.Direction;
import dev.headroom.sample.PerDirection;
import java.util.List;
import java.util.Map;

/**
 * What the tunnels of the interface looked like at one sample. Immutable: made on the sampling thread,
 * read by the HTTP threads. Carries no full key, so it can be shown as it is.
 *
 * <p>Usage: {@code snap.tunnels() + " tunnels, " + snap.active() + " active"}
 *
 * @param intervalSeconds length of the interval the rates cover; 0 on the first sample (no rates yet)
 * @param tunnels peers configured on the interface
 * @param handshakeRecent peers with a handshake younger than the configured window
 * @param active peers moving more than the activity threshold
 * @param appeared peers first seen at this sample
 * @param disappeared peers gone since the previous sample
 * @param counterResets peers whose counters went backwards (peer re-added); their interval is dropped
 * @param directions each direction: download is WireGuard's tx to the peers, upload its rx from them
 * @param topTalkers the busiest tunnels, fastest first (both directions together)
 * @param activeByConnection the active tunnels by how they are carried (every {@link Connection}, 0 when none)
 */
public record CensusSnapshot(
    double intervalSeconds,
    int tunnels,
    int handshakeRecent,
    int active,
    int appeared,
    int disappeared,
    int counterResets,
    PerDirection<DirectionCensus> directions,
    List<Talker> topTalkers,
    Map<Connection, Integer> activeByConnection) {

  public CensusSnapshot {
    topTalkers = List.copyOf(topTalkers);
    activeByConnection = Map.copyOf(activeByConnection);
  }

  /** Active tunnels carried this way. */
  public int active(Connection c) {
    return activeByConnection.getOrDefault(c, 0);
  }

  /** True when the rates describe an interval (false on the first sample after start). */
  public boolean hasRates() {
    return intervalSeconds > 0;
  }

  public DirectionCensus direction(Direction d) {
    return directions.get(d);
  }
}
