package dev.headroom.read.netbird;

import java.util.List;

/**
 * The fields headroom reads from NetBird's management REST API, named as in its schema
 * ({@code shared/management/http/api/openapi.yml} in netbirdio/netbird). Fields not declared here are ignored, so
 * the API may grow; a declared field of the wrong JSON type fails the read naming it, and {@link #require} names a
 * missing one. Both end a refresh as a schema problem, which keeps the last good inventory.
 *
 * <p>Usage: {@code List<ApiSchema.Peer> peers = Json.readList(ApiSchema.Peer.class, body);}
 */
public final class ApiSchema {
  private ApiSchema() {}

  /** {@code GET /api/networks}: schema {@code Network}. */
  public record Network(String id, String name, List<String> routers) {}

  /** {@code GET /api/networks/routers}: schema {@code NetworkRouter}; {@code peer} or {@code peer_groups}. */
  public record NetworkRouter(String id, String peer, List<String> peer_groups, Integer metric, Boolean masquerade,
      Boolean enabled) {}

  /** {@code GET /api/routes}: schema {@code Route}; {@code network_id} is the route's name (its HA group). */
  public record Route(String id, String network_id, String peer, List<String> peer_groups, Integer metric,
      Boolean masquerade, Boolean enabled) {}

  /** {@code GET /api/peers}: schema {@code PeerBatch}. */
  public record Peer(String id, String name, String ip, String dns_label, Boolean connected, String hostname,
      List<GroupMinimum> groups) {}

  /** A peer's group: schema {@code GroupMinimum}. */
  public record GroupMinimum(String id, String name) {}

  /** {@code GET /api/groups}: schema {@code Group}, whose peers are {@code PeerMinimum}. */
  public record Group(String id, String name, List<PeerMinimum> peers) {}

  /** Schema {@code PeerMinimum}. */
  public record PeerMinimum(String id, String name) {}

  /** A required field the answer lacks (removed or renamed), named by its path; the refresh fails with it. */
  public static final class SchemaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SchemaException(String message) {
      super(message);
    }
  }

  /**
   * Throws a {@link SchemaException} naming {@code path.field} when {@code value} is null. A router or route names
   * its peer by {@code peer} or by {@code peer_groups}, so those two are checked together by the caller.
   */
  static <T> T require(T value, String path, String field) {
    if (value == null) {
      throw new SchemaException(path + "." + field + " is missing");
    }
    return value;
  }
}
