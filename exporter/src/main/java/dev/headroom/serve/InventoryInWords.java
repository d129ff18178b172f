package dev.headroom.serve;

import dev.headroom.judge.NetworkDesign;
import dev.headroom.read.netbird.Inventory;
import dev.headroom.read.netbird.Targets;
import java.util.List;
import java.util.Map;

/**
 * The inventory for a person ({@code headroom discover --once}, the landing page): each Network with its routers,
 * the primary marked, then the design rules it breaks in words.
 *
 * <p>Usage: {@code out.print(InventoryInWords.render(inventory, targets));}
 */
public final class InventoryInWords {
  private InventoryInWords() {}

  public static String render(Inventory inventory, Targets targets) {
    StringBuilder b = new StringBuilder();
    List<NetworkDesign> designs = NetworkDesign.judge(inventory);
    long broken = designs.stream().filter(d -> !d.problems().isEmpty()).count();
    b.append(designs.size()).append(" Networks, ").append(targets.entries(inventory).size())
        .append(" scrape targets, from ").append(inventory.peersListed()).append(" peers NetBird lists\n");
    for (NetworkDesign d : designs) {
      Inventory.Network n = d.network();
      b.append('\n').append("Network ").append(n.name()).append(" (").append(n.id())
          .append(n.source() == Inventory.Source.ROUTES ? ", a network route" : "").append("): ")
          .append(n.enabled().size()).append(" enabled routing peer").append(n.enabled().size() == 1 ? "" : "s")
          .append('\n');
      if (n.routers().isEmpty()) {
        b.append("  no routing peer\n");
      }
      for (Inventory.Router r : n.routers()) {
        boolean primary = d.primary().filter(x -> x == r).isPresent();
        b.append("  ").append(primary ? "primary " : r.enabled() ? "standby " : "disabled").append(' ')
            .append(r.peer().name()).append("  metric ").append(r.metric())
            .append("  ").append(targets.of(r.peer()).orElse("(no address)"))
            .append(r.peer().connected() ? "" : "  not connected to management").append('\n');
      }
      for (NetworkDesign.Problem p : d.problems()) {
        b.append("  broken: ").append(p.words());
        if (p == NetworkDesign.Problem.SHARED_BOX) {
          for (Map.Entry<String, List<String>> e : d.sharedBoxes().entrySet()) {
            b.append("; ").append(e.getKey()).append(" also routes ").append(String.join(", ", e.getValue()));
          }
        }
        b.append('\n');
      }
    }
    b.append('\n').append(broken == 0 ? "every Network keeps the guide's rules"
        : broken + " of " + designs.size() + " Networks break the guide's rules").append('\n');
    return b.toString();
  }
}
