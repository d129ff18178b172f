package dev.headroom.judge;

import dev.headroom.read.netbird.Inventory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The guide's design rules checked on NetBird's inventory, per Network: which router is primary (NetBird routes
 * through the enabled router of lowest metric), whether a standby exists, and whether a routing peer also routes
 * another Network. The rule "a Network past one peer's ceiling" needs the peers' load and is judged by the alert
 * rules, not here.
 *
 * <p>Usage: {@code for (NetworkDesign d : NetworkDesign.judge(inventory)) if (d.problems().contains(Problem.SINGLE_ROUTER)) ...}
 *
 * @param primary the enabled router NetBird routes through; empty when none is enabled
 * @param sharedBoxes for each of this Network's enabled routing peers that also routes other Networks: the peer's
 *     name and those Networks' names
 */
public record NetworkDesign(Inventory.Network network, Optional<Inventory.Router> primary, Set<Problem> problems,
    Map<String, List<String>> sharedBoxes) {
  /** Enabled routing peers a Network needs: one active, one standby. */
  public static final int ROUTERS_NEEDED = 2;

  /** A design rule broken; {@link #label} is the {@code problem} label of the inventory metrics. */
  public enum Problem {
    /** Fewer than {@link #ROUTERS_NEEDED} enabled routing peers: no standby takes over when the one fails. */
    SINGLE_ROUTER("fewer than " + ROUTERS_NEEDED + " enabled routing peers: no standby"),
    /** A routing peer of this Network also routes another: the Networks share one box's ceiling and its failure. */
    SHARED_BOX("a routing peer also routes another Network: two Networks' routers on one box");

    private final String label = name().toLowerCase(Locale.ROOT);
    private final String words;

    Problem(String words) {
      this.words = words;
    }

    public String label() {
      return label;
    }

    public String words() {
      return words;
    }
  }

  /** The Networks of {@code inventory}, in its order, each judged. */
  public static List<NetworkDesign> judge(Inventory inventory) {
    Map<String, Set<String>> networksByPeer = new HashMap<>();
    for (Inventory.Network n : inventory.networks()) {
      for (Inventory.Router r : n.enabled()) {
        networksByPeer.computeIfAbsent(r.peer().id(), k -> new LinkedHashSet<>()).add(n.id() + "\u0000" + n.name());
      }
    }
    List<NetworkDesign> out = new ArrayList<>();
    for (Inventory.Network n : inventory.networks()) {
      List<Inventory.Router> enabled = n.enabled();
      Optional<Inventory.Router> primary = enabled.stream()
          .min(Comparator.comparingInt(Inventory.Router::metric).thenComparing(Inventory.Router::routerId));
      Set<Problem> problems = EnumSet.noneOf(Problem.class);
      if (enabled.size() < ROUTERS_NEEDED) {
        problems.add(Problem.SINGLE_ROUTER);
      }
      Map<String, List<String>> shared = new java.util.LinkedHashMap<>();
      for (Inventory.Router r : enabled) {
        List<String> others = networksByPeer.get(r.peer().id()).stream()
            .filter(k -> !k.startsWith(n.id() + "\u0000"))
            .map(k -> k.substring(k.indexOf('\u0000') + 1)).toList();
        if (!others.isEmpty()) {
          shared.put(r.peer().name(), others);
        }
      }
      if (!shared.isEmpty()) {
        problems.add(Problem.SHARED_BOX);
      }
      out.add(new NetworkDesign(n, primary, java.util.Collections.unmodifiableSet(problems),
          java.util.Collections.unmodifiableMap(shared)));
    }
    return out;
  }
}
