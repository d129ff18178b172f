package dev.headroom.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** docs/metrics.md and the exposed families agree: nothing served goes undocumented. */
class MetricsReferenceTest {
  private static final Pattern TYPE = Pattern.compile("^# TYPE (headroom_\\w+) (\\w+)$", Pattern.MULTILINE);
  private static final Pattern DOC = Pattern.compile("\\| `(headroom_\\w+)` \\| (\\w+) \\|");

  @Test
  void everyFamilyInTheGoldenFilesIsDocumentedWithItsType() throws IOException {
    String doc = Files.readString(Path.of("../docs/metrics.md"));
    java.util.Map<String, String> documented = new java.util.TreeMap<>();
    Matcher d = DOC.matcher(doc);
    while (d.find()) {
      documented.put(d.group(1), d.group(2));
    }
    Set<String> undocumented = new TreeSet<>();
    Set<String> seen = new TreeSet<>();
    try (Stream<Path> goldens = Files.list(Path.of("src/test/resources/golden"))) {
      for (Path g : (Iterable<Path>) goldens::iterator) {
        Matcher m = TYPE.matcher(Files.readString(g));
        while (m.find()) {
          String family = m.group(1);
          String type = m.group(2);
          String name = family; // the text format names counters with their _total
          seen.add(name);
          if (!documented.containsKey(name)) {
            undocumented.add(name + " (" + g.getFileName() + ")");
          } else {
            String docType = documented.get(name);
            // Enums are gauges on the wire and "stateset" in the reference.
            String expected = docType.equals("stateset") ? "gauge" : docType;
            assertEquals(expected, type, name + " is documented as " + docType);
          }
        }
      }
    }
    assertTrue(undocumented.isEmpty(), "served but not in docs/metrics.md: " + undocumented);
    assertTrue(seen.size() > 40, "golden files hold only " + seen.size() + " families");
  }
}
