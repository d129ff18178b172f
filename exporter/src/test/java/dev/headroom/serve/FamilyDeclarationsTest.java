package dev.headroom.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Every family headroom exposes is declared once, by one area, with one help text and type. */
class FamilyDeclarationsTest {
  private static final List<Class<?>> AREAS = List.of(TunnelMetrics.class, UnderlayMetrics.class, CpuMetrics.class,
      VerdictMetrics.class, CensusMetrics.class, SelfMetrics.class);

  private static Map<String, String> declared() throws IllegalAccessException {
    Map<String, String> owner = new HashMap<>();
    for (Class<?> area : AREAS) {
      for (Field f : area.getDeclaredFields()) {
        if (f.getType() == Family.class && Modifier.isStatic(f.getModifiers())) {
          f.setAccessible(true);
          Family fam = (Family) f.get(null);
          String before = owner.put(fam.name(), area.getSimpleName() + "." + f.getName());
          assertEquals(null, before, fam.name() + " declared twice: " + before + " and " + area.getSimpleName() + "." + f.getName());
        }
      }
    }
    return owner;
  }

  @Test
  void noFamilyIsDeclaredTwice() throws Exception {
    assertTrue(declared().size() > 60, "areas declare " + declared().size() + " families");
  }

  @Test
  void everyHeadroomFamilyInTheGoldenExpositionIsDeclaredByAnArea() throws Exception {
    Set<String> names = declared().keySet();
    Set<String> exposed = new TreeSet<>();
    for (String golden : List.of("kernel", "userspace")) {
      String text = new String(getClass().getResourceAsStream("/golden/" + golden + ".prom").readAllBytes(), StandardCharsets.UTF_8);
      text.lines().filter(l -> l.startsWith("# TYPE headroom_")).forEach(l -> {
        String n = l.split(" ")[2];
        exposed.add(l.endsWith(" counter") ? n.replaceFirst("_total$", "") : n);
      });
    }
    exposed.removeAll(names);
    assertEquals(Set.of(), exposed, "exposed but declared by no area");
  }
}
